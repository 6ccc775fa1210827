"""Response generators behind one interface: template (default) and llm."""

from .base import Responder
from .template import TemplateResponder

__all__ = ["Responder", "TemplateResponder"]
