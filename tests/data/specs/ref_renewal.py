"""A membership-renewal agent in the reference's Python-class layout (written for these tests)."""

from enum import Enum
from typing import List

from worksheets.core.fields import GenieField
from worksheets.core.worksheet import Action, GenieWorksheet


class Plan(str, Enum):
    basic = "Basic"
    family = "Family"


def record_renewal(member_id, plan):
    """Store the renewal in the membership system."""
    raise RuntimeError("never run: the loader reads this file, it does not import it")


class MemberCheck(GenieWorksheet):
    predicate = "renewal is not None"
    actions = Action("")
    backend_api = ""
    outputs = []
    """Check the details on file."""

    email = GenieField(str, "email", description="The e-mail address on file", requires_confirmation=True)
    postcode = GenieField(str, "postcode", description="The postcode on file", requires_confirmation=True)


class Guest(GenieWorksheet):
    predicate = ""
    actions = Action("")
    backend_api = ""
    outputs = []
    """A guest who comes with the member."""

    guest_name = GenieField(str, "guest_name", description="The guest's name")


class Renewal(GenieWorksheet):
    predicate = ""
    actions = Action(">say('Thanks for renewing.')")
    backend_api = "record_renewal"
    outputs = ["renewal_id"]
    """Renew a membership for another year."""

    member_id = GenieField(str, "member_id", description="Your member number")
    member_check = GenieField(MemberCheck, "member_check", description="Check the details on file")
    plan = GenieField(
        Plan,
        "plan",
        description="The plan to renew",
        predicate=(
            "self.member_check is not None and "
            "self.member_check.email.confirmed == True and "
            "self.member_check.postcode.confirmed == True"
        ),
    )
    guests = GenieField(List[Guest], "guests", description="The guests", predicate="self.plan == 'Family'")
    notes = GenieField(str, "notes", description="Anything to add", optional=True,
                       actions=Action("@log_note(self.member_id, self.notes)"))
    renewal_id = GenieField(str, "renewal_id", description="Your renewal number", ask=False, optional=True)


renewal_bot = Agent(
    botname="Renewal desk",
    description="Renews memberships.",
    starting_prompt="Hello! I can renew your membership.",
)
