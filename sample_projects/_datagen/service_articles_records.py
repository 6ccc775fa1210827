"""Student-services help articles, part 2: leaves of absence, test credit, records and fees.

Same format as ``service_articles_enrollment``: (title, text) with blank-line paragraphs.
"""

from __future__ import annotations

RECORDS_ARTICLES: list[tuple[str, str]] = [
    ("Requesting a leave of absence", """
A leave of absence lets you step away from your studies for one or more quarters while
keeping your place at the university. Students take leaves for medical reasons, family
emergencies, military service, internships or personal reasons. Undergraduates may take up
to eight quarters of leave in total; graduate students up to four quarters unless their
department approves more.

To request a leave, fill out the Leave of Absence Request form in StudentHub under Forms,
or download the PDF version. The form needs your advisor's signature and, for graduate
students, the signature of the department's student services officer. International
students must also obtain a signature from the international student office before
submitting, because a leave affects visa status.

You can submit the completed form in one of three ways: by email to
registrar-forms@example.edu, in person at the Student Services Center in Hollis Hall, Room
120, or through a staff member such as your advisor, who can upload it for you. Submit the
form before the first day of the quarter for a full tuition refund. Processing takes five to
seven business days after all signatures are collected, and you receive an email when the
leave is approved. While on leave you cannot enroll in classes or use campus housing.
"""),
    ("Checking the status of a leave of absence form", """
After you submit a Leave of Absence Request, you can follow its progress in StudentHub:
open Forms, then My Requests, and select the request. The status is one of: Submitted,
Awaiting Signatures, Under Review, Approved, or Returned for Changes.

How quickly the status changes depends on how the form was submitted. Forms submitted in
StudentHub appear within minutes. Forms sent by email to registrar-forms@example.edu are
entered by staff within two business days, and forms handed in at the Student Services
Center in person are entered within one business day. Forms submitted through a staff member
appear once that person uploads them. If your request does not appear in My Requests after
these periods, keep your email confirmation or the stamped copy you received in person.

Processing takes five to seven business days after all signatures are collected. If your
request shows "Returned for Changes", open it to read the reviewer's note, correct the form
and resubmit it. If the status has not changed for more than ten business days, submit a
ticket to the Student Services Center and include how you submitted the form (email, in
person or through staff), the date you submitted it, and the quarter the leave starts.
"""),
    ("Returning from a leave of absence", """
When your approved leave ends, you return to active status automatically: you do not need
to reapply. About six weeks before the quarter in which you plan to return, check StudentHub
for holds and make sure your enrollment appointment is listed. If you took a medical leave,
you must also submit clearance from your health care provider to the campus health service
before you can enroll.

If you want to extend your leave instead of returning, submit a new Leave of Absence Request
before the first day of the quarter in which you were due back. Extensions count toward the
maximum of eight quarters for undergraduates and four for graduate students.

Students who do not return at the end of an approved leave and do not request an extension
have their enrollment discontinued at the end of the first week of the quarter. To come back
after that, you need to apply for reinstatement, which takes longer and may carry a fee. See
"Discontinued enrollment and reinstatement". Housing, financial aid and health insurance each
have their own deadlines for returning students, so contact those offices early as well.
"""),
    ("Returning early from a leave of absence", """
If your circumstances change and you want to come back before your approved leave ends, you
can ask to return early. Submit the Request to Return Early form in StudentHub under Forms at
least 30 days before the first day of the quarter in which you want to return. The form needs
your advisor's signature; graduate students also need their department's approval.

Students on a medical leave must attach a clearance letter from their health care provider,
which the campus health service reviews before the request is approved. International
students must also contact the international student office, because returning early
requires updated visa documents.

Requests are normally processed within ten business days. Once approved, your leave is
shortened, your status becomes active on the first day of the new quarter and your
enrollment appointment is added to StudentHub. If you submit the request less than 30 days
before the quarter, it may still be approved, but you may miss your enrollment appointment
and have to enroll in courses with waitlists. You cannot return in the middle of a quarter.
"""),
    ("Discontinued enrollment and reinstatement", """
Your enrollment is discontinued when you are not enrolled in a quarter and are not on an
approved leave of absence. This happens most often when a student does not enroll by the
Final Study List deadline, or does not return at the end of a leave. A discontinued student
cannot enroll, use campus housing or receive financial aid.

To come back, submit an Application for Reinstatement in StudentHub under Forms. The
application asks for a short statement about what you did while away and your plan for
completing your degree. Undergraduates need their advisor's recommendation; graduate
students need their department's approval. Applications should be submitted at least six
weeks before the quarter in which you want to return, and there is a $125 reinstatement
fee.

If you know you will not enroll in an upcoming quarter, it is almost always better to request
a leave of absence in advance, which keeps your student status active and avoids the fee. If
you believe your enrollment was discontinued by mistake, for example because you were on an
approved leave, submit a ticket to the Student Services Center right away.
"""),
    ("Leaves of absence, tuition refunds and insurance", """
How much tuition is refunded when you take a leave depends on when the leave begins. A leave
that starts before the first day of the quarter gives a full refund of tuition and fees. If
you start a leave during the quarter, tuition is refunded on a sliding scale: 100 percent in
the first week, 75 percent in the second week, 50 percent in the third week and 25 percent
in the fourth week. After the fourth week no tuition is refunded, and your courses are
recorded as withdrawals.

Student health insurance continues until the end of the quarter in which your leave begins.
After that you may buy a continuation plan for up to two quarters; the enrollment form is
on the health service website and must be submitted within 30 days of the start of your
leave. Students on financial aid should contact the financial aid office before requesting a
leave, because aid for the current quarter may have to be returned.

Housing contracts end two weeks after your leave begins. If you have a balance on your
student account, it stays due while you are on leave and a financial hold may block your
return.
"""),
    ("AP exam credit: sending scores and posting", """
The university awards credit for many Advanced Placement (AP) exams with a score of 4 or 5.
The AP credit chart, published in the Registrar's section of StudentHub, lists which exams
earn credit, how many units each earns and which courses the credit can replace. Units
earned from AP exams count toward graduation but not toward the grade point average.

We only accept official scores sent electronically by the College Board. Screenshots, score
reports printed from your College Board account, and scores listed on a high school
transcript cannot be used. To send your scores, sign in to your College Board account,
choose Send Scores, and select our university as the recipient. The first report after you
graduate from high school is free if you chose our university as your free score recipient.

Scores usually arrive within two weeks of your request. After they arrive, credit is posted
to your record within four to six weeks. Scores from exams taken in May are typically posted
by the end of August. You can see posted credit in StudentHub under Academic Record, where
each exam is listed as "AP" followed by the subject.
"""),
    ("AP or IB credit is missing or incorrect", """
If you cannot find your AP or IB credit in StudentHub under Academic Record, first check how
long ago your scores were sent. Credit is posted four to six weeks after official scores
arrive, and scores sent in June or July are usually posted by the end of August. If that
time has not passed, please wait before contacting us.

Also check the credit chart: only exams and scores listed there earn credit. For AP, a score
of 4 or 5 is needed for most subjects; for the International Baccalaureate, only Higher
Level exams with a score of 5, 6 or 7 earn credit. Standard Level exams do not earn credit.
If you took both the AP and IB exam in the same subject, credit is awarded only once.

If your credit is still missing after six weeks, or the number of units is wrong, submit a
ticket to the Student Services Center under External Test Credits. Tell us the type of test
(AP or IB), the subjects, when you asked the testing agency to send the scores, and what you
see on your record. We will check whether the scores were received and correct your record
if needed. Corrections are usually made within ten business days.
"""),
    ("International Baccalaureate credit", """
The university awards credit for International Baccalaureate (IB) Higher Level exams with a
score of 5, 6 or 7. Standard Level exams, the Extended Essay and Theory of Knowledge do not
earn credit. The number of units for each subject is listed in the external credit chart in
StudentHub; most subjects earn 10 units, and language subjects earn 5.

IB results must be sent directly by the International Baccalaureate Organization. Ask the IB
coordinator at your school, or request a transcript of grades through the IB's online
system, with our university as the recipient. Copies of your diploma or results sent by you
are not accepted. Results usually arrive in July for exams taken in May.

Credit is posted four to six weeks after the results arrive, and you can see it in StudentHub
under Academic Record. IB credit can satisfy some introductory course requirements and count
toward the 180 units needed to graduate, but it never counts toward the grade point average.
Some departments only use IB results for placement, not for units; check your department's
guidelines. If credit is missing or the units look wrong, see "AP or IB credit is missing or
incorrect".
"""),
    ("International test scores and unit awards", """
Students who completed secondary school outside the United States may receive unit awards
for certain national examinations. We currently evaluate the Caribbean Advanced Proficiency
Examination, the French Baccalaureate, the General Certificate of Education "A" levels, the
German Abitur, the Irish Leaving Certificate and the National Examinations in World
Languages (NEWL). Awards are available in Chemistry, Computer Science, Economics, Language,
Mathematics and Physics, according to the international credit chart.

To request a unit award, submit the International Test Credit Request in StudentHub under
Forms. Choose the type of test, select the subjects for which you expect a unit award and
upload a copy of your official certificate or results. The original or a certified copy
must also be sent by your school or examination board to the Office of the Registrar; a
certified English translation is required for documents in other languages.

Requests must be submitted before the end of your first year of enrollment. Evaluations take
four to eight weeks because some certificates must be verified with the issuing board. You
receive an email when the evaluation is complete, and awarded units appear in StudentHub
under Academic Record. If no award is possible, the email explains why.
"""),
    ("Limits on external test credit", """
External test credit includes AP, IB and international examination awards, and transfer
credit earned before you matriculated. All of these together may count for at most 45 units
toward the 180 units needed for the bachelor's degree. Units beyond 45 are still listed on
your record but do not count toward graduation.

Test credit can be used in two ways. It can give you units, and it can let you skip an
introductory course: for example, a 5 on the AP Computer Science A exam allows you to start
with CS 106B instead of CS 106A. Each department decides how test credit is used for
placement, and some departments, such as Mathematics, also offer their own placement
diagnostic.

Test credit does not satisfy general education requirements, the writing requirement or
the language requirement unless the credit chart says so, and it never affects your grade
point average. If you later take the course that your test credit replaces, the test credit
units are removed so that you do not receive units twice for the same material.
"""),
    ("Ordering an official transcript", """
An official transcript is a certified copy of your academic record sent directly to a
school, employer or agency. You can order one in StudentHub under Academic Record, then
Order Official Transcript. Electronic transcripts are free and are usually delivered within
one business day as a secure PDF. Paper transcripts cost $10 each and are mailed within
three business days; international mailing may take two to three weeks.

When you order, you can choose to send the transcript immediately, after grades for the
current quarter are posted, or after your degree is conferred. Official transcripts cannot
be ordered while you have a financial or registrar hold on your record; resolve the hold
first.

Former students who no longer have access to StudentHub can order transcripts through the
alumni transcript service on the Registrar's website. If an institution says it never
received your transcript, first check the delivery confirmation in your order history, then
submit a ticket to the Student Services Center with the order number and the recipient's
address.
"""),
    ("Unofficial transcripts and enrollment verification", """
You can view and print an unofficial transcript at any time in StudentHub under Academic
Record. It lists your courses, units, grades, test credit and degrees, but not the
university seal or a signature, so some employers and schools will not accept it. Unofficial
transcripts are free and are not blocked by holds.

An enrollment verification letter confirms that you are, or were, enrolled for a given
quarter and whether you are full-time. Insurance companies, landlords, lenders and
embassies often ask for one. You can print a verification letter in StudentHub under
Academic Record, then Enrollment Verification. Letters for the current quarter are available
after the Final Study List deadline; before that date, the letter shows your planned
enrollment.

If an organization needs a form signed by the university, such as a loan deferment form,
upload it with a ticket to the Student Services Center. We complete signed forms within
three business days. Verifications of degrees awarded are handled by the Registrar and
are free of charge.
"""),
    ("Tuition, fees and your student bill", """
Your student bill is posted in StudentHub under Student Account about three weeks before
each quarter and is due on the first day of classes. It shows tuition, the campus health
fee, the student activity fee, and any housing, dining or course fees. Full-time tuition is
a flat rate for 12 to 20 units; students enrolled in fewer units, or with an approved
overload, are charged per unit.

You can pay by electronic bank transfer in StudentHub, by international wire, or with a
payment plan that divides the quarter's charges into three monthly installments for a $25
enrollment fee. Payments by credit card are not accepted for tuition.

Balances more than 30 days past due receive a $75 late payment fee and a financial hold that
blocks enrollment and official transcripts. Other common charges are the $50 late study list
change petition fee, the $125 reinstatement fee and the $10 fee for paper transcripts. If you
believe a charge is wrong, submit a ticket to the Student Services Center with the charge
description and date; billing questions are answered within three business days.
"""),
    ("Contacting the Student Services Center", """
The Student Services Center helps with enrollment, waitlists, leaves of absence, external
test credit, transcripts, student records and billing questions. We are in Hollis Hall,
Room 120, and are open Monday to Friday from 9 AM to 5 PM, except university holidays.

The fastest way to get help is to submit a ticket through the help assistant or in
StudentHub under Help. Choose the topic that matches your question, such as Troubleshoot
Student Enrollment, Leave of Absence or External Test Credits, and include the details we
ask for: course codes, form submission dates, test types and any error messages. Tickets are
answered within two business days, and you receive a ticket number so you can follow up.

You can also email studentservices@example.edu or call (650) 555-0142 during office hours.
For urgent problems on the day of a deadline, call or visit in person. Please do not send
your full student ID number, passwords or financial information by email; we will never ask
for your password. If you are not satisfied with the answer to a ticket, reply to the ticket
email and a supervisor will review it.
"""),
    ("Updating your name, address or emergency contact", """
Keep your personal information up to date so that you receive bills, notices and your
diploma. You can change your mailing address, phone number and emergency contact at any
time in StudentHub under Personal Information. Changes take effect immediately.

To change your legal name on your academic record, submit the Name Change Request in
StudentHub under Forms with a copy of a court order, marriage certificate, passport or other
legal document showing the new name. Name changes are processed within five business days
and appear on future transcripts and on your diploma. You can also set a preferred first
name, which is shown in class rosters and the directory but not on official documents; it
does not require any documentation.

If you are an international student, your name must match your passport and visa
documents, so contact the international student office before changing it. Your student ID
number never changes, even if your name does.
"""),
]
