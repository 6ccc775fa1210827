"""Hand-written computer-science catalogue, part 1: introductory, systems and theory courses.

Titles and descriptions are invented in the field's usual vocabulary. Fields left as
``None`` (hours, rating centre, seasons, schedule) are drawn by ``courses.py``; pinned
values echo the Genie paper's course-enrollment conversation (App. H.1.1).
"""

from __future__ import annotations

from dataclasses import dataclass

LCR = "Letter or Credit/No Credit"
LET = "Letter (ABCD/NP)"
CRN = "Credit/No Credit"


@dataclass(frozen=True)
class CourseSpec:
    """One catalogue entry; ``schedule`` is (days, start, end) for every offering if set."""

    codes: tuple[str, ...]
    title: str
    units: tuple[int, int]
    grading: str
    description: str
    prereqs: tuple[str, ...] = ()
    foundations: str = ""
    breadth: str = ""
    impl: bool = False
    general: tuple[str, ...] = ()
    hours: float | None = None
    rating: float | None = None
    seasons: tuple[str, ...] | None = None
    schedule: tuple[str, str, str] | None = None


CORE_COURSES: list[CourseSpec] = [
    CourseSpec(("CS 41",), "Python in Practice", (2, 2), CRN,
               "A hands-on tour of idiomatic Python for students who already program. Covers "
               "comprehensions, generators, decorators, the standard library and packaging, "
               "and ends with a small project of the student's choosing.",
               prereqs=("CS 106A",)),
    CourseSpec(("CS 103",), "Mathematical Foundations of Computing", (3, 5), LET,
               "How to read and write mathematical proofs about programs and machines. Topics "
               "include set theory, induction, graphs, finite automata, regular expressions, "
               "context-free grammars and the limits of computation. Weekly problem sets "
               "emphasize clear written arguments.",
               prereqs=("CS 106B",), foundations="logic_automata_and_complexity",
               general=("WAY-FR",)),
    CourseSpec(("CS 106A",), "Programming Methodology", (3, 5), LCR,
               "An introduction to programming for students with no prior experience, taught in "
               "Python. Students learn decomposition, control flow, lists, dictionaries, "
               "files and simple graphics by writing a series of small programs. The course "
               "stresses good style and testing habits from the first week.",
               general=("WAY-FR", "WAY-AQR"), seasons=("autumn", "winter", "spring", "summer")),
    CourseSpec(("CS 106B",), "Programming Abstractions", (3, 5), LCR,
               "The second programming course, taught in C++. Covers recursion, abstract data "
               "types, linked structures, trees, hashing, sorting and an introduction to "
               "algorithmic analysis. Assignments build larger programs from reusable pieces.",
               prereqs=("CS 106A",), general=("WAY-FR", "WAY-AQR"),
               seasons=("autumn", "winter", "spring", "summer")),
    CourseSpec(("CS 106L",), "Standard C++ Programming Laboratory", (1, 1), CRN,
               "A companion to CS 106B for students who want to go deeper into modern C++. "
               "Covers the standard library containers and algorithms, templates, move "
               "semantics and resource management.",
               prereqs=("CS 106B",)),
    CourseSpec(("CS 107",), "Computer Organization and Systems", (3, 5), LET,
               "How programs run on real hardware. Students program in C and read x86-64 "
               "assembly, and study pointers, memory layout, bitwise operations, the runtime "
               "stack, heap allocation and performance. Includes a substantial heap allocator "
               "project.",
               prereqs=("CS 106B",), foundations="computer_organization_and_systems",
               impl=True, seasons=("autumn", "winter", "spring")),
    CourseSpec(("CS 107E",), "Computer Systems from the Ground Up", (3, 5), LET,
               "Systems programming on a bare-metal single-board computer with no operating "
               "system underneath. Students write their own libraries for timers, graphics, "
               "keyboards and interrupts in C and assembly, and finish with a hardware project.",
               prereqs=("CS 106B",), foundations="computer_organization_and_systems",
               impl=True),
    CourseSpec(("CS 108",), "Object-Oriented Systems Design", (3, 4), LCR,
               "Software design and construction for medium-sized programs, taught in Java. "
               "Covers object-oriented programming, class hierarchies, design patterns, unit "
               "testing, graphical user interface libraries and working in teams. The quarter "
               "ends with a multi-week team project.",
               prereqs=("CS 107",), impl=True, hours=16.29, rating=4.1,
               seasons=("autumn", "winter")),
    CourseSpec(("CS 109",), "Introduction to Probability for Computer Scientists", (3, 5), LET,
               "Probability from a computer scientist's point of view: counting, random "
               "variables, distributions, expectation, the central limit theorem, maximum "
               "likelihood and an introduction to machine learning. Requires comfort with "
               "single-variable and multivariable calculus.",
               prereqs=("CS 103", "CS 106B", "MATH 51"), foundations="probability",
               general=("WAY-AQR",), seasons=("autumn", "spring"),
               schedule=("Monday, Wednesday, Friday", "3:00 PM", "4:20 PM")),
    CourseSpec(("CS 110",), "Principles of Computer Systems", (3, 5), LET,
               "How operating systems and networks support real programs. Topics include file "
               "systems, processes, signals, threads, synchronization, networking and "
               "client-server design, taught through a series of C++ systems programs.",
               prereqs=("CS 107",), foundations="principles_of_computer_systems", impl=True),
    CourseSpec(("CS 111",), "Operating Systems Principles", (3, 5), LET,
               "The core abstractions of operating systems and how they are implemented: "
               "concurrency, scheduling, virtual memory, file systems and crash recovery. "
               "Assignments build pieces of a small teaching kernel.",
               prereqs=("CS 107",), foundations="principles_of_computer_systems", impl=True),
    CourseSpec(("CS 140",), "Operating Systems and Systems Programming", (3, 4), LCR,
               "Design of modern operating systems with a large team implementation project. "
               "Students extend a teaching operating system with threads, user programs, "
               "virtual memory and a file system.",
               prereqs=("CS 110",), breadth="systems", impl=True),
    CourseSpec(("CS 140E",), "Operating Systems Design and Implementation", (3, 4), LCR,
               "Students write a small operating system for a single-board computer from "
               "scratch, one device driver and one subsystem at a time. Emphasis on reading "
               "hardware manuals and testing low-level code.",
               prereqs=("CS 107",), breadth="systems", impl=True),
    CourseSpec(("CS 142",), "Web Applications", (3, 3), LCR,
               "How modern web applications are built: HTML, CSS, JavaScript, component-based "
               "front-end frameworks, server-side storage, sessions and web security. Students "
               "build a full photo-sharing application over the quarter.",
               prereqs=("CS 107",), breadth="systems", impl=True),
    CourseSpec(("CS 143",), "Compilers", (3, 4), LCR,
               "Principles and practice of compiler construction. Covers lexical analysis, "
               "parsing, semantic analysis, intermediate representations, code generation and "
               "optimization; students build a working compiler for a small object-oriented "
               "language.",
               prereqs=("CS 103", "CS 107"), breadth="systems", impl=True),
    CourseSpec(("CS 144",), "Introduction to Computer Networking", (3, 4), LCR,
               "How the Internet works, from links and routing to transport and applications. "
               "Students implement a reliable transport protocol and a router in C++ and test "
               "them against real network traffic.",
               prereqs=("CS 110",), breadth="systems", impl=True),
    CourseSpec(("CS 145",), "Data Management and Data Systems", (3, 4), LCR,
               "Introduction to relational databases and large-scale data processing. Topics "
               "include SQL, data modeling, indexing, query optimization, transactions and "
               "cloud data warehouses, with projects on real data sets.",
               prereqs=("CS 107", "CS 109"), breadth="systems", impl=True),
    CourseSpec(("CS 149",), "Parallel Computing", (3, 4), LCR,
               "Principles of writing fast parallel programs on multicore CPUs, GPUs and "
               "clusters. Covers parallel programming models, synchronization, memory "
               "hierarchies, data-parallel thinking and performance measurement.",
               prereqs=("CS 107", "CS 111"), breadth="systems", impl=True),
    CourseSpec(("CS 152",), "Trust and Safety Engineering", (3, 3), LCR,
               "How online platforms are abused and what engineers, policy teams and "
               "moderators do about it. Case studies cover spam, harassment, fraud and "
               "misinformation, with a final project on a real trust and safety problem.",
               prereqs=("CS 106B",), breadth="people_and_society"),
    CourseSpec(("CS 154",), "Introduction to the Theory of Computation", (3, 4), LET,
               "Models of computation and their limits. Covers finite automata, Turing "
               "machines, decidability, reductions, time complexity, NP-completeness and a "
               "glimpse of modern complexity theory.",
               prereqs=("CS 103",), breadth="formal_foundations"),
    CourseSpec(("CS 155",), "Computer and Network Security", (3, 3), LCR,
               "Principles of building secure systems and of attacking insecure ones. Topics "
               "include memory-safety exploits, sandboxing, web security, network attacks, "
               "malware and secure system design; projects exploit and then fix vulnerable "
               "code.",
               prereqs=("CS 110",), breadth="systems", impl=True),
    CourseSpec(("CS 157",), "Computational Logic", (3, 3), LCR,
               "Logic as a tool for representing knowledge and reasoning automatically. "
               "Covers propositional and relational logic, proof systems, resolution and "
               "applications to databases, planning and program verification.",
               prereqs=("CS 103",), breadth="formal_foundations"),
    CourseSpec(("CS 161",), "Design and Analysis of Algorithms", (3, 5), LET,
               "Worst-case and average-case analysis, recurrences, divide and conquer, "
               "randomized algorithms, sorting, graph search, shortest paths, minimum spanning "
               "trees, greedy algorithms and dynamic programming. "
               "Students practice proving algorithms correct and analyzing their running time.",
               prereqs=("CS 103", "CS 109"), foundations="algorithmic_analysis",
               seasons=("autumn", "winter", "spring", "summer")),
    CourseSpec(("CS 166",), "Data Structures", (3, 4), LCR,
               "Advanced data structures and the techniques used to analyze them: balanced "
               "trees, amortized analysis, range queries, string structures, hashing schemes "
               "and randomized structures. Includes an open-ended research project.",
               prereqs=("CS 107", "CS 161"), breadth="formal_foundations", impl=True),
    CourseSpec(("CS 168",), "The Modern Algorithmic Toolbox", (3, 4), LCR,
               "Algorithmic ideas that show up in practice with large data: hashing and "
               "sketching, dimension reduction, spectral methods, sampling, regularization and "
               "convex optimization, each paired with a hands-on mini-project. "
               "Assignments mix short proofs with experiments in Python.",
               prereqs=("CS 109", "CS 161"), breadth="formal_foundations"),
    CourseSpec(("CS 181",), "Computers, Ethics, and Public Policy", (4, 5), LCR,
               "Ethical and policy questions raised by computing: privacy, algorithmic "
               "fairness, automation and work, platform power and free speech. Students write "
               "policy memos and debate cases in small sections.",
               breadth="people_and_society", general=("WAY-ER", "Writing in the Major")),
    CourseSpec(("CS 182",), "Technology, Power, and Society", (3, 4), LCR,
               "How technical choices shape who holds power. Combines readings from "
               "philosophy, law and political science with case studies on surveillance, "
               "content moderation and artificial intelligence.",
               breadth="people_and_society", general=("WAY-ER",)),
    CourseSpec(("CS 190",), "Software Design Studio", (3, 4), LET,
               "A studio course on designing software that stays simple as it grows. Students "
               "write several medium-sized programs, review each other's code in depth and "
               "revise their designs based on feedback.",
               prereqs=("CS 107",), breadth="systems", impl=True),
    CourseSpec(("CS 193P",), "iOS Application Development", (3, 3), LCR,
               "Building mobile applications with Swift and a declarative user interface "
               "framework. Covers app architecture, animation, persistence and concurrency, "
               "ending with a final app project.",
               prereqs=("CS 107",), impl=True),
    CourseSpec(("CS 194",), "Software Project", (3, 4), LET,
               "Capstone course in which teams design, build and ship a substantial software "
               "system for a real client. Emphasis on requirements, planning, code review, "
               "testing and written and oral communication.",
               prereqs=("CS 110",), impl=True, general=("Writing in the Major",)),
    CourseSpec(("CS 197",), "Computer Science Research", (3, 4), LCR,
               "An introduction to doing research in computer science. Students read papers, "
               "reproduce a published result and propose a small extension, working closely "
               "with a faculty-led research group.",
               prereqs=("CS 107", "CS 109")),
    CourseSpec(("CS 198",), "Teaching Computer Science", (3, 4), CRN,
               "Preparation for students who will lead discussion sections in the "
               "introductory programming courses. Covers grading, giving feedback, running "
               "sections and supporting students from diverse backgrounds.",
               prereqs=("CS 106B",)),
    CourseSpec(("CS 199",), "Independent Work", (1, 5), CRN,
               "Special study under faculty direction, usually leading to a written report or "
               "a software artifact. Students must arrange a supervisor before enrolling.",
               seasons=("autumn", "winter", "spring", "summer")),
    CourseSpec(("CS 240",), "Advanced Topics in Operating Systems", (3, 3), LCR,
               "Graduate seminar reading classic and recent operating systems papers, from "
               "microkernels to serverless platforms. Students present papers and complete "
               "a research project.",
               prereqs=("CS 140",), breadth="systems"),
    CourseSpec(("CS 242",), "Programming Languages", (3, 3), LCR,
               "Foundations of programming language design: syntax, semantics, type systems, "
               "functional and object-oriented paradigms, control operators and concurrency. "
               "Assignments implement interpreters and type checkers.",
               prereqs=("CS 103", "CS 107"), breadth="formal_foundations", impl=True),
    CourseSpec(("CS 243",), "Program Analysis and Optimizations", (3, 4), LCR,
               "Theory and practice of program analysis in optimizing compilers: data-flow "
               "analysis, static single assignment form, pointer analysis, loop optimization "
               "and parallelization. "
               "Students implement several analyses in a research compiler.",
               prereqs=("CS 143",), breadth="systems", impl=True),
    CourseSpec(("CS 244",), "Advanced Topics in Networking", (3, 4), LCR,
               "Reading and reproducing research results in computer networking, including "
               "congestion control, data-center networks, software-defined networking and "
               "programmable switches. "
               "Teams reproduce a published experiment and write up what they find.",
               prereqs=("CS 144",), breadth="systems"),
    CourseSpec(("CS 245",), "Principles of Data-Intensive Systems", (3, 3), LCR,
               "Design of systems that store and process large data sets: storage formats, "
               "query execution, transactions, stream processing and distributed data "
               "processing frameworks. "
               "Readings pair classic papers with the designs of current open-source systems.",
               prereqs=("CS 145",), breadth="systems"),
    CourseSpec(("CS 250",), "Algebraic Error Correcting Codes", (3, 3), LCR,
               "Mathematical foundations of error-correcting codes and their algorithms, "
               "including Reed-Solomon codes, list decoding and applications in storage and "
               "complexity theory. "
               "Assumes comfort with linear algebra and finite fields.",
               prereqs=("CS 103", "MATH 104"), breadth="formal_foundations"),
    CourseSpec(("CS 251",), "Cryptocurrencies and Blockchain Technologies", (3, 3), LCR,
               "How cryptocurrencies work: consensus protocols, scripting, smart contracts, "
               "scalability and privacy, along with their economic and legal context. "
               "Students write and attack smart contracts in a test network.",
               prereqs=("CS 110",), breadth="systems"),
    CourseSpec(("CS 253",), "Web Security", (3, 3), LCR,
               "Principles of web security: the browser security model, cross-site attacks, "
               "authentication, transport security and secure application design, with "
               "hands-on attack and defense exercises. "
               "Assignments exploit and then patch a deliberately vulnerable web application.",
               prereqs=("CS 142",), breadth="systems"),
    CourseSpec(("CS 254",), "Computational Complexity", (3, 3), LCR,
               "A graduate introduction to complexity theory: time and space hierarchies, the "
               "polynomial hierarchy, circuits, randomness, interactive proofs and hardness of "
               "approximation. "
               "Weekly problem sets and a final expository paper.",
               prereqs=("CS 154",), breadth="formal_foundations"),
    CourseSpec(("CS 255",), "Introduction to Cryptography", (3, 3), LCR,
               "Theory and practice of cryptographic systems: symmetric encryption, message "
               "integrity, public-key encryption, digital signatures and key exchange, and "
               "how real protocols get them wrong. "
               "Problem sets include short programming exercises that break weak schemes.",
               prereqs=("CS 103", "CS 109"), breadth="formal_foundations"),
    CourseSpec(("CS 261",), "Optimization and Algorithmic Paradigms", (3, 3), LCR,
               "Advanced algorithm design through the lens of optimization: network flows, "
               "linear programming and duality, online algorithms, approximation algorithms "
               "and algorithms for large data. "
               "Lectures emphasize proofs of correctness and approximation guarantees.",
               prereqs=("CS 161",), breadth="formal_foundations"),
    CourseSpec(("CS 265",), "Randomized Algorithms and Probabilistic Analysis", (3, 3), LCR,
               "Randomness as a resource in algorithm design: concentration bounds, random "
               "walks, hashing, the probabilistic method and Markov chain Monte Carlo. "
               "Intended for students who enjoyed CS 109 and CS 161.",
               prereqs=("CS 109", "CS 161"), breadth="formal_foundations"),
    CourseSpec(("CS 269I",), "Incentives in Computer Science", (3, 3), LCR,
               "How incentives shape systems built by and for many people: auctions, "
               "matching markets, peer-to-peer systems, crowdsourcing and blockchains. "
               "No economics background is assumed.",
               prereqs=("CS 161",), breadth="formal_foundations"),
    CourseSpec(("CS 343D",), "Domain-Specific Programming Models and Compilers", (3, 3), LCR,
               "How domain-specific languages let programmers write fast code for image "
               "processing, machine learning and scientific computing, and how their "
               "compilers schedule and optimize it. "
               "Students design a small language of their own as a final project.",
               prereqs=("CS 143",), breadth="systems", impl=True),
    CourseSpec(("CS 344",), "Topics in Computer Networks", (3, 3), LCR,
               "Hands-on design of a high-performance network system: students build the "
               "control plane and data plane of an Internet router in teams and "
               "interoperate with each other's routers. "
               "Teams build the control plane in C and the data plane in P4.",
               prereqs=("CS 144",), breadth="systems", impl=True),
    CourseSpec(("CS 369Z",), "Topics in Algorithm Design: Streaming and Sketching", (3, 3), LCR,
               "Research seminar on algorithms that process data in one pass with little "
               "memory: sketches, sampling, lower bounds and applications to networks and "
               "databases. "
               "Students read recent papers and present one in class.",
               prereqs=("CS 161",), breadth="formal_foundations"),
]
