"""Student-services help articles, part 1: enrollment, course changes and waitlists.

Each entry is (title, text); blank lines separate paragraphs and line breaks inside a
paragraph are only source wrapping (``services.py`` reflows them). The university, its
offices, tools, fees and deadlines are invented and kept consistent across articles.
"""

from __future__ import annotations

ENROLLMENT_ARTICLES: list[tuple[str, str]] = [
    ("How to enroll in classes", """
Enrollment for each quarter opens on the date listed in the Academic Calendar. Before your
enrollment appointment, open the StudentHub portal and check the Holds panel on your home
page. Any hold listed there (for example an unpaid balance or a missing immunization record)
blocks enrollment until it is cleared by the office named in the hold.

To enroll, add classes to your Class Planner, then open Quick Enroll and select the classes
you want to take. Choose the section and any required discussion or lab, pick the number of
units for variable-unit courses, and choose your grading basis. Review the summary and press
Enroll. A green check mark means you are enrolled; a yellow triangle means you were placed
on a waitlist; a red X means the request failed and a message explains why.

You cannot enroll while you are on an approved leave of absence or if your enrollment has
been discontinued. See the articles on leaves of absence and reinstatement for what to do in
those cases. If something still does not work, read "Troubleshooting enrollment problems"
before contacting the Student Services Center.
"""),
    ("Troubleshooting enrollment problems", """
Most enrollment errors have a simple cause. Work through these steps in order before
submitting a help ticket.

First, check that enrollment is open for your program on today's date and that your
enrollment appointment has started. Second, look for holds on your StudentHub home page and
follow the instructions to resolve them. Third, remove any leftover classes marked as
"planned" in Class Planner from earlier quarters; stale planned classes are the most common
reason Quick Enroll freezes or shows a blank page.

If the page still misbehaves, clear your browser cache and cookies, close every browser
window, and sign in to StudentHub again. You can also try the other enrollment tool: if
Quick Enroll fails, use Enroll (Classic), which is slower but handles unusual sections such
as independent study and courses with several linked components.

When you contact us, please include the course code, the section, the exact error message
and a screenshot if possible. Tickets with this information are usually resolved within two
business days. Urgent problems on the day of a deadline can be reported by phone at
(650) 555-0142 during office hours.
"""),
    ("Enrollment holds and how to remove them", """
A hold is a flag on your student record that stops certain actions, most often enrollment or
ordering an official transcript. Holds are listed on the StudentHub home page together with
the office that placed them and what you need to do.

The most common holds are: a Financial hold for a balance more than 30 days past due, cleared
by paying the balance or setting up a payment plan with Student Accounts; a Health hold for
missing immunization records, cleared by uploading your records to the health portal; an
Advising hold for new students who have not yet met their advisor; and a Registrar hold for
missing documents such as a final high school transcript.

After you complete the required step, the office that placed the hold removes it, usually
within one business day. The Student Services Center cannot remove holds placed by other
offices, but we can tell you who to contact. If a hold was removed but Quick Enroll still
reports it, sign out, wait fifteen minutes for the systems to synchronize, and try again.
"""),
    ("Adding a course", """
You can add a course in Quick Enroll until 5 PM Pacific time on the Friday of the third week
of the quarter, the Final Study List deadline. Until the first day of classes you may add any
course with open seats. After classes begin, some departments require a permission number
from the instructor, especially for small seminars and lab courses.

To add a course, search for it by course code (for example "CS 108"), choose a section, and
select Enroll. If the course is full you will be offered a place on the waitlist instead. If
the course meets at the same time as one of your current classes, Quick Enroll shows a time
conflict error; see "Time conflicts between classes" for your options.

After the Final Study List deadline, adding a course requires a late add petition, which
needs the instructor's signature and carries a $50 late fee per petition. Petitions are
reviewed within five business days. Please remember that a course you attend but are not
enrolled in will not appear on your transcript, and you cannot receive credit for it
retroactively without a petition.
"""),
    ("Dropping a course", """
You may drop a course in Quick Enroll without any record on your transcript until the Final
Study List deadline, 5 PM on the Friday of the third week of the quarter. Open Quick Enroll,
find the course in your current schedule, choose Drop and confirm. Dropping a course removes
it from your study list and, if you were below the tuition threshold, may change your bill.

Before dropping, check whether the course is a prerequisite for something you plan to take
later and whether dropping it would bring you below the minimum units for full-time status
(12 units for undergraduates, 8 units for graduate students). International students must
stay at full-time status unless they have approval from the international student office,
and students receiving financial aid should confirm that their aid is not affected.

After the Final Study List deadline you can no longer drop a course, but you can withdraw
from it until the Friday of the eighth week. A withdrawal appears on your transcript as a
"W" and does not affect your grade point average. See "Withdrawing from a course" for
details.
"""),
    ("Changing the number of units for a course", """
Many courses are offered for a range of units, for example 3 to 5 units. The number of units
you choose affects your tuition, your full-time status and, in some courses, the amount of
work expected of you, so check the syllabus before deciding.

To change units, open Quick Enroll, select the course in your current schedule and choose
Edit. Pick the new number of units from the menu and save. Unit changes are allowed until
the Final Study List deadline, 5 PM on the Friday of the third week. If the menu does not
offer the number you want, the course is fixed-unit or the instructor has limited the range;
only the department can change that.

Your total may not exceed 20 units in a quarter without an approved unit overload request.
If a unit change would take you above 20 units, Quick Enroll rejects it with the message
"Maximum units exceeded". After the deadline, unit changes require a late change petition
signed by the instructor, with a $50 late fee.
"""),
    ("Changing your grading basis", """
Courses are offered for a letter grade, for Credit/No Credit, or with a choice between the
two ("Letter or Credit/No Credit"). When a course offers both, you choose the grading basis
when you enroll, and you can change it in Quick Enroll by selecting the course, choosing
Edit and picking a different basis.

Grading basis changes are allowed until 5 PM on the Friday of the eighth week of the
quarter. After that date the basis is locked and cannot be changed by petition except in
documented emergencies.

Check your degree requirements before choosing Credit/No Credit. Most courses that count
toward a major must be taken for a letter grade, and some graduate programs limit how many
Credit/No Credit units count toward the degree. A "Credit" grade does not affect your grade
point average; a "No Credit" grade does not either, but it does not earn units. If you are
unsure, your academic advisor can confirm which grading basis your program accepts.
"""),
    ("Withdrawing from a course", """
After the Final Study List deadline (Friday of week three) you can no longer drop a course,
but you can still withdraw from it until 5 PM on the Friday of the eighth week. Withdrawing
removes you from the course and records a "W" on your transcript. A W does not count in
your grade point average and does not earn units.

To withdraw, open Quick Enroll, select the course and choose Withdraw. The system asks you
to confirm because a withdrawal cannot be undone. Tuition is not refunded for a course
withdrawal after the third week.

Withdrawing may bring you below full-time status. Undergraduates need at least 12 units and
graduate students at least 8 units to remain full-time; international students and students
receiving financial aid should consult their advisors first. If you need to withdraw from
all of your courses, do not use this process: request a leave of absence instead, which
protects your student status. See "Requesting a leave of absence".
"""),
    ("Quarterly enrollment deadlines", """
Every quarter follows the same pattern of deadlines; exact dates are published in the
Academic Calendar. All deadlines fall at 5 PM Pacific time.

Enrollment opens about six weeks before the quarter, on a schedule based on your class
year. Waitlist automatic enrollment runs every night until the Friday of the second week.
The Final Study List deadline is the Friday of the third week: it is the last day to add or
drop a course, change units, or join a waitlist, and the last day to drop without a
transcript notation. The Friday of the eighth week is the last day to change your grading
basis and to withdraw from a course with a "W".

Requests after a deadline need a late petition signed by the instructor and cost $50 each.
Petitions for dates in a past quarter are only considered for documented emergencies.
Summer quarter is shorter, so its deadlines fall earlier: the Final Study List deadline is
the Friday of the second week and the withdrawal deadline is the Friday of the sixth week.
"""),
    ("Joining a waitlist", """
When a course section is full, Quick Enroll offers to add you to the waitlist. To join,
search for the course, choose the full section and select "Join waitlist". You will see
your position on the list in your schedule, marked with a yellow triangle.

Before you join, make sure you could actually be enrolled if a seat opens: the course must
not conflict with the meeting times of your other classes, and enrolling must not take you
above 20 units. If either condition fails on the night a seat opens, you are skipped and
the seat goes to the next student. You can be on at most five waitlists at a time, and you
can join a waitlist until the Final Study List deadline.

Some courses do not use waitlists; for those, Quick Enroll shows "Waitlist not available"
and you should contact the department or the instructor directly. Being on a waitlist does
not count toward your units or your full-time status, so keep enough enrolled units to stay
full-time while you wait.
"""),
    ("Waitlist rules and automatic enrollment", """
Waitlists are processed automatically every night until the Friday of the second week of
the quarter. When a seat opens, the system tries to enroll the first student on the list.
The attempt succeeds only if the student has no hold, no time conflict with another
enrolled class and would remain at or below 20 units. Otherwise the student is skipped and
keeps their position for the next night.

If you are enrolled from a waitlist, you receive an email and the course appears in your
schedule with the grading basis and units you chose when you joined. Check both, because
the defaults may not be what you want. After the second week, waitlists stop moving
automatically; instructors may then give permission numbers to students still waiting.

You can use the "swap" option to join a waitlist for one section while staying enrolled in
another course; if the waitlisted seat opens, the system drops the other course and enrolls
you in the new one in the same step. Instructors may cap or close a waitlist at any time,
and a waitlist position is never a guarantee of a seat.
"""),
    ("Why you were not enrolled from a waitlist", """
If a seat opened but you were not enrolled, one of the automatic checks probably failed.
The most common reasons are listed below; fix the cause and you will be considered again on
the next nightly run, as long as it is before the Friday of the second week.

A time conflict: the waitlisted course overlaps with a course you are enrolled in. Use the
swap option or drop the conflicting course. A unit limit: enrolling would take you above 20
units; reduce units elsewhere or request a unit overload. A hold: a new hold appeared on your
record; resolve it from the StudentHub home page. A closed waitlist: the instructor capped
the list or stopped using it. A prerequisite or permission requirement that you have not
met: contact the department.

You can see the reason for the last failed attempt by opening the course in your schedule
and choosing "Waitlist details". If none of these explain the problem, submit a ticket to
the Student Services Center with the course code and section, your position on the
waitlist, and a screenshot of the waitlist details page.
"""),
    ("Permission numbers and instructor consent", """
Some courses require instructor consent: small seminars, courses with limited lab space,
graduate courses for undergraduates, and most courses after the second week of the
quarter. For these, the instructor or department issues a permission number, a five-digit
code tied to one course section and one student.

To use a permission number, open Quick Enroll, search for the course, select the section
and enter the number in the Permission field before pressing Enroll. A permission number
lets you enroll in a full section and can waive prerequisite checks, but it does not waive
time conflicts or the 20-unit limit. Each number can be used only once and expires at the
Final Study List deadline.

To ask for a permission number, email the instructor or the department's student services
officer with your name, student ID, the course code and why you want to take the course.
The Student Services Center cannot issue permission numbers, because only the department
can decide who is admitted to a full or restricted course.
"""),
    ("Unit limits and overload requests", """
Undergraduates may enroll in at most 20 units per quarter during autumn, winter and spring,
and at most 15 units in summer. Graduate students have the same maximum. To be full-time,
undergraduates need at least 12 units and graduate students at least 8 units.

If you need more than 20 units, submit a Unit Overload Request in StudentHub under Forms.
Undergraduates need the approval of their academic advisor and must have completed at least
one quarter with a grade point average of 3.0 or higher; graduate students need their
department's approval. Requests are reviewed within three business days, and approved
overloads are limited to 24 units. Additional units beyond the tuition flat rate are billed
per unit.

Remember that waitlisted courses are checked against the limit when a seat opens: if
enrolling would take you above your maximum, you will be skipped. Approve your overload
request before the nightly waitlist run if you rely on it.
"""),
    ("Time conflicts between classes", """
Quick Enroll will not enroll you in two classes whose meeting times overlap, including
discussion sections and labs. The error message names both classes and the overlapping
times.

You have three options. You can choose a different section of one of the courses if another
section exists. You can drop or swap one of the courses. Or, if you have a good reason to
take both, you can ask both instructors to sign a Time Conflict Approval form, which confirms
that you may miss part of one class and will keep up with the material. Submit the signed
form through StudentHub under Forms; the Registrar adds an exception within two business
days, after which you can enroll normally.

Time conflict approvals are never granted for final examinations that overlap. A conflict
also stops automatic enrollment from a waitlist, so resolve conflicts before the nightly
waitlist run if you want the waitlisted seat.
"""),
    ("Late enrollment petitions and fees", """
After the Final Study List deadline, changes to your study list require a petition. The
Late Study List Change Petition covers late adds, late drops and late unit changes, and is
available in StudentHub under Forms. Grading basis changes after the eighth week are not
accepted by petition except in documented emergencies.

Each petition needs the signature of the course instructor and, for drops, a short
explanation of why the change could not be made on time. The fee is $50 per petition; it
is charged to your student account when the petition is approved. Petitions are reviewed
within five business days, and you will receive an email with the decision.

Petitions for a previous quarter, or for dropping a course after a final grade has been
assigned, are considered only for documented circumstances beyond your control, such as a
medical emergency. If that applies to you, include the supporting documentation with your
petition. Do not use a petition to leave all of your courses at once; request a leave of
absence instead.
"""),
]
