"""Hand-written computer-science catalogue, part 2: AI, vision, graphics, HCI and biology.

The graphics and vision entries answer the "movie making" question of the Genie paper's
course-enrollment conversation (CS 148, CS 248, CS 348B, CS 448, CS 448B, CS 448H, ...).
"""

from __future__ import annotations

from .course_catalog import CRN, LCR, LET, CourseSpec

AI_COURSES: list[CourseSpec] = [
    CourseSpec(("CS 11SI",), "Building Virtual Reality Experiences", (1, 2), CRN,
               "A project course on designing virtual reality applications with a game "
               "engine. Covers 3D interaction, comfort, storytelling in immersive scenes and "
               "the asset pipeline, ending with a short VR film or game.",
               prereqs=("CS 106A",)),
    CourseSpec(("CS 21SI",), "AI for Social Good", (2, 2), CRN,
               "Students apply machine learning to problems posed by non-profit partners in "
               "health, education and the environment. Covers regression, neural networks and "
               "responsible deployment, with a team project.",
               prereqs=("CS 106A",)),
    CourseSpec(("CS 124",), "From Languages to Information", (3, 4), LCR,
               "How to extract meaning from text and other information on the web. Topics "
               "include regular expressions, language models, text classification, sentiment "
               "analysis, information retrieval, recommender systems and chatbots.",
               prereqs=("CS 106B", "CS 109"), breadth="learning_and_modeling", rating=4.6,
               seasons=("winter",)),
    CourseSpec(("CS 129",), "Applied Machine Learning", (3, 4), LCR,
               "A practical introduction to machine learning for students who want to use it "
               "on real problems. Covers supervised and unsupervised learning, model "
               "evaluation, feature engineering and common pitfalls, using Python libraries.",
               prereqs=("CS 106B", "CS 109"), breadth="learning_and_modeling"),
    CourseSpec(("CS 131",), "Computer Vision: Foundations and Applications", (3, 4), LCR,
               "Fundamental ideas of image processing and computer vision and how they are "
               "used in cars, medicine and film. Covers filtering, edges, features, "
               "segmentation, motion and recognition. Requires familiarity with Python, "
               "calculus and linear algebra.",
               prereqs=("CS 106B", "MATH 51"), breadth="learning_and_modeling"),
    CourseSpec(("CS 148",), "Introduction to Computer Graphics and Imaging", (3, 4), LCR,
               "How images are made on a computer, from cameras and color to geometry, "
               "rasterization, ray tracing, shading and animation, the building blocks of "
               "animated film and visual effects. Students build scenes in a "
               "professional 3D package and write their own small renderer.",
               prereqs=("CS 107",), breadth="learning_and_modeling", impl=True),
    CourseSpec(("CS 178",), "Digital Photography", (3, 3), LCR,
               "The science and art of photography: optics, sensors, exposure, color, image "
               "processing and computational photography. Students shoot weekly assignments "
               "and learn how cameras in phones and film production work.",
               breadth="people_and_society", general=("WAY-SMA",)),
    CourseSpec(("CS 194H",), "User Interface Design Project", (3, 4), LET,
               "A team project course applying human-centered design to a real problem: "
               "needfinding, prototyping, usability testing and implementation of an "
               "interactive product. "
               "Teams present their work in a public demo at the end of the quarter.",
               prereqs=("CS 147",), breadth="people_and_society", impl=True,
               general=("Writing in the Major",)),
    CourseSpec(("CS 147",), "Introduction to Human-Computer Interaction Design", (3, 5), LCR,
               "Introduces the design of interactive systems centered on people. Students "
               "practice needfinding, ideation, prototyping and evaluation in teams, and "
               "learn the psychology behind usable interfaces.",
               breadth="people_and_society", general=("WAY-CE",)),
    CourseSpec(("CS 205L",),
               "Continuous Mathematical Methods with an Emphasis on Machine Learning",
               (3, 3), LCR,
               "A survey of the numerical linear algebra and optimization behind modern "
               "machine learning and simulation: least squares, eigenproblems, singular value "
               "decomposition, gradient methods and automatic differentiation. "
               "Examples come from graphics, physics simulation and neural networks.",
               prereqs=("MATH 51",), breadth="learning_and_modeling"),
    CourseSpec(("CS 221",), "Artificial Intelligence: Principles and Techniques", (3, 4), LCR,
               "Foundations of artificial intelligence: search, Markov decision processes, "
               "game playing, constraint satisfaction, Bayesian networks, logic and machine "
               "learning. Programming assignments apply each technique to a concrete "
               "problem.",
               prereqs=("CS 103", "CS 106B", "CS 109"), breadth="learning_and_modeling",
               impl=True, seasons=("autumn", "spring")),
    CourseSpec(("CS 224N", "LINGUIST 284"), "Natural Language Processing with Deep Learning",
               (3, 4), LCR,
               "Deep learning methods for natural language processing: word vectors, "
               "recurrent networks, attention, transformers, pretraining and large language "
               "models. Students build neural models for translation and question answering "
               "and complete a final project.",
               prereqs=("CS 106B", "CS 109", "MATH 51"), breadth="learning_and_modeling",
               seasons=("winter", "spring"),
               schedule=("Tuesday, Thursday", "4:30 PM", "5:50 PM")),
    CourseSpec(("CS 224S", "LINGUIST 285"), "Spoken Language Processing", (2, 4), LCR,
               "How machines recognize, understand and produce speech. Covers acoustics, "
               "speech recognition, text-to-speech and spoken dialogue systems, with a final "
               "project on a voice application.",
               prereqs=("CS 124",), breadth="learning_and_modeling"),
    CourseSpec(("CS 224U", "LINGUIST 188"), "Natural Language Understanding", (3, 4), LCR,
               "Project-oriented course on systems that understand language: grounded "
               "meaning, natural language inference, retrieval-augmented models and careful "
               "evaluation methods. "
               "Most of the quarter is spent on a research-style final project.",
               prereqs=("CS 224N",), breadth="learning_and_modeling"),
    CourseSpec(("CS 224W",), "Machine Learning with Graphs", (3, 4), LCR,
               "Learning on networks such as social graphs, molecules and knowledge graphs. "
               "Covers node embeddings, graph neural networks, knowledge graph reasoning and "
               "generative models of graphs.",
               prereqs=("CS 109", "CS 161"), breadth="learning_and_modeling"),
    CourseSpec(("CS 228",), "Probabilistic Graphical Models", (3, 4), LCR,
               "Representing and reasoning about uncertainty with Bayesian networks and Markov "
               "random fields: exact and approximate inference, parameter learning and "
               "structure learning. "
               "Applications include medical diagnosis, vision and language.",
               prereqs=("CS 109", "CS 161"), breadth="learning_and_modeling"),
    CourseSpec(("CS 229",), "Machine Learning", (3, 4), LCR,
               "A broad introduction to machine learning and statistical pattern recognition: "
               "supervised learning, generalization, kernels, neural networks, unsupervised "
               "learning and reinforcement learning, with the mathematics behind each. "
               "Problem sets combine derivations with Python implementations.",
               prereqs=("CS 109", "MATH 51"), breadth="learning_and_modeling",
               seasons=("autumn", "spring", "summer")),
    CourseSpec(("CS 230",), "Deep Learning", (3, 4), LCR,
               "Building and training deep neural networks in practice: optimization, "
               "regularization, convolutional and sequence models, and strategies for "
               "structuring machine learning projects. Flipped classroom with a team project.",
               prereqs=("CS 109", "CS 229"), breadth="learning_and_modeling"),
    CourseSpec(("CS 231A",), "Computer Vision: From 3D Reconstruction to Recognition",
               (3, 3), LCR,
               "Geometry and recognition in computer vision: camera models, epipolar geometry, "
               "stereo, structure from motion, tracking and object recognition. Useful for "
               "visual effects and robotics.",
               prereqs=("CS 131",), breadth="learning_and_modeling"),
    CourseSpec(("CS 231C",), "Computer Vision for Art and Cultural Heritage", (3, 3), LCR,
               "Applies image analysis, computer vision and graphics to paintings, drawings "
               "and historical artifacts: brushstroke analysis, lighting estimation, "
               "restoration and authentication. "
               "No art history background is required.",
               prereqs=("CS 131",), breadth="learning_and_modeling"),
    CourseSpec(("CS 231N",), "Deep Learning for Computer Vision", (3, 4), LCR,
               "Neural-network methods for visual recognition: image classification, "
               "convolutional networks, detection, segmentation, video understanding and "
               "generative models of images. Assignments implement networks from scratch.",
               prereqs=("CS 109", "CS 229"), breadth="learning_and_modeling", impl=True,
               seasons=("spring",)),
    CourseSpec(("CS 234",), "Reinforcement Learning", (3, 3), LCR,
               "How agents learn to act from experience: Markov decision processes, policy "
               "and value methods, exploration, offline learning and learning from human "
               "feedback. "
               "Assignments train agents in simulated control and game environments.",
               prereqs=("CS 229",), breadth="learning_and_modeling"),
    CourseSpec(("CS 236",), "Deep Generative Models", (3, 3), LCR,
               "Probabilistic foundations and algorithms of deep generative models: "
               "autoregressive models, variational autoencoders, normalizing flows, "
               "adversarial networks and diffusion models, with applications to images, "
               "audio and video. "
               "The course ends with a project that trains a generative model.",
               prereqs=("CS 109", "CS 229"), breadth="learning_and_modeling"),
    CourseSpec(("CS 236G",), "Generative Adversarial Networks", (3, 3), LCR,
               "Theory and practice of adversarial image generation, from the original "
               "formulation to conditional and style-based models, with applications to "
               "image editing and visual effects. "
               "Students train their own models on a GPU cloud allocation.",
               prereqs=("CS 106B", "CS 229"), breadth="learning_and_modeling"),
    CourseSpec(("CS 238", "AA 228"), "Decision Making under Uncertainty", (3, 4), LCR,
               "Algorithms for acting well when the world is uncertain: Bayesian networks, "
               "utility theory, Markov decision processes, partially observable problems and "
               "multi-agent settings, applied to aviation, robotics and medicine. "
               "Students complete a final project on a decision problem of their choice.",
               prereqs=("CS 109",), breadth="learning_and_modeling"),
    CourseSpec(("CS 246",), "Mining Massive Data Sets", (3, 4), LCR,
               "Algorithms for extracting knowledge from very large data: MapReduce and "
               "Spark, locality-sensitive hashing, clustering, recommender systems, link "
               "analysis and streams. "
               "Homework uses a cluster to process data sets with billions of records.",
               prereqs=("CS 107", "CS 161", "CS 109"), breadth="learning_and_modeling"),
    CourseSpec(("CS 247A",), "Design for Artificial Intelligence", (3, 4), LCR,
               "A studio course on designing products that use machine learning: human-AI "
               "interaction, prototyping with models, error handling and designing for trust. "
               "Teams prototype and test an AI-powered product with real users.",
               prereqs=("CS 147",), breadth="people_and_society"),
    CourseSpec(("CS 247B",), "Design for Behavior Change", (3, 4), LCR,
               "How interactive products can help people build better habits. Students run "
               "field studies, design interventions and measure their effect.",
               prereqs=("CS 147",), breadth="people_and_society"),
    CourseSpec(("CS 248",), "Interactive Computer Graphics", (3, 4), LCR,
               "Real-time graphics for games, film previsualization and interactive media: "
               "the GPU pipeline, shaders, texture mapping, lighting, animation and scene "
               "management. Students build a real-time renderer and a small game.",
               prereqs=("CS 107", "CS 148"), breadth="learning_and_modeling", impl=True),
    CourseSpec(("CS 248B",), "Fundamentals of Computer Graphics: Animation and Simulation",
               (3, 4), LCR,
               "The math and algorithms behind animated characters and physical effects in "
               "film and games: keyframing, skinning, rigid bodies, cloth, fluids and "
               "particle systems. "
               "Students write their own simulators and render short animated clips.",
               prereqs=("CS 148",), breadth="learning_and_modeling", impl=True),
    CourseSpec(("CS 273A", "BIOMEDIN 273A"), "A Computational Tour of the Human Genome",
               (3, 3), LCR,
               "An introduction to genome biology for computer scientists: sequence analysis, "
               "gene regulation, comparative genomics and the tools used to study human "
               "variation and disease. "
               "No biology background is assumed.",
               prereqs=("CS 106B",), breadth="learning_and_modeling"),
    CourseSpec(("CS 278",), "Social Computing", (3, 3), LCR,
               "How to design online communities and platforms that work: norms, moderation, "
               "collaboration, crowdsourcing and the social science behind them. "
               "Students design, launch and study a small online community.",
               prereqs=("CS 147",), breadth="people_and_society"),
    CourseSpec(("CS 279",), "Computational Biology: Structure and Organization of Biomolecules",
               (3, 3), LCR,
               "Computational methods for understanding proteins, nucleic acids and cells: "
               "molecular simulation, structure prediction, docking and image analysis of "
               "cells. "
               "Assignments use Python and standard structural biology tools.",
               prereqs=("CS 106B", "MATH 51"), breadth="learning_and_modeling"),
    CourseSpec(("CS 329S",), "Machine Learning Systems Design", (3, 4), LCR,
               "How to design, deploy and maintain machine learning systems in production: "
               "data pipelines, training and serving infrastructure, monitoring and "
               "responsible deployment. "
               "Teams deploy a working machine learning application by the end of the quarter.",
               prereqs=("CS 229",), breadth="systems"),
    CourseSpec(("CS 330",), "Deep Multi-Task and Meta Learning", (3, 3), LCR,
               "Methods that let neural networks learn many tasks and adapt quickly to new "
               "ones: multi-task learning, transfer, meta-learning and few-shot learning. "
               "Assignments implement methods in a deep learning framework.",
               prereqs=("CS 229",), breadth="learning_and_modeling"),
    CourseSpec(("CS 347",), "Human-Computer Interaction: Foundations and Frontiers", (3, 3), LCR,
               "Graduate survey of research in human-computer interaction, from foundational "
               "papers to current work on interactive AI, accessibility and social computing. "
               "Students lead paper discussions and complete a research project.",
               prereqs=("CS 147",), breadth="people_and_society"),
    CourseSpec(("CS 348B",), "Image Synthesis Techniques", (3, 4), LCR,
               "Physically based rendering as used in feature films: ray tracing, light "
               "transport, Monte Carlo integration, materials and camera models. Students "
               "extend a production-style renderer and render a final scene.",
               prereqs=("CS 148",), breadth="learning_and_modeling", impl=True),
    CourseSpec(("CS 348E",), "Character Animation: Modeling, Simulation, and Control of Motion",
               (3, 3), LCR,
               "Techniques for making virtual characters move convincingly: motion capture, "
               "kinematics, physics-based simulation and learned controllers for animation "
               "and robotics. "
               "Techniques apply equally to animated film and legged robots.",
               prereqs=("CS 148",), breadth="learning_and_modeling"),
    CourseSpec(("CS 348K",), "Visual Computing Systems", (3, 4), LCR,
               "Design of efficient systems for images and video: camera processing "
               "pipelines, video analytics, hardware accelerators for vision and the systems "
               "behind large-scale rendering. "
               "Students read systems papers and build a performance-critical prototype.",
               prereqs=("CS 149",), breadth="systems"),
    CourseSpec(("CS 448",), "Topics in Computer Graphics", (3, 4), LCR,
               "Advanced topics that change each quarter, such as computational photography, "
               "character animation, virtual worlds, graphics architectures and advanced "
               "rendering. May be repeated for credit.",
               prereqs=("CS 148",), breadth="learning_and_modeling"),
    CourseSpec(("CS 448B",), "Data Visualization", (3, 4), LCR,
               "Techniques and algorithms for creating effective visualizations of data, based "
               "on principles from graphic design, perception and cognition. Students build "
               "interactive visualizations for the web and critique published graphics.",
               prereqs=("CS 106B",), breadth="people_and_society", seasons=("autumn",),
               schedule=("Monday, Wednesday", "11:30 AM", "12:50 PM")),
    CourseSpec(("CS 448H",), "Topics in Computer Graphics: Agile Hardware Design", (3, 4), LCR,
               "Designing custom hardware for graphics and imaging with modern agile methods: "
               "hardware generators, high-level synthesis and rapid prototyping on FPGAs. "
               "May be repeated for credit.",
               prereqs=("CS 149",), breadth="systems", impl=True),
]
