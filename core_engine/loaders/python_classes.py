"""The reference's Python-class layout (`worksheets.py`), read statically with `ast`.

The authors' newer agents are Python modules: one class per worksheet, fields as
class attributes built with a field constructor, Enum classes for enum types:

    class Grade(str, Enum):
        letter = "Letter"

    class Course(GenieWorksheet):
        predicate = ""
        actions = Action("")
        backend_api = "submit_course"
        outputs = ["confirmation_code"]
        '''What the user wants to take.'''
        course_name = GenieField(str, "course_name", description="Course", optional=True,
                                 internal=False, ask=True, requires_confirmation=False,
                                 predicate="...", actions=Action("@notify(self)"))
        grade = GenieField(Grade, "grade_type")

The file is parsed, never imported or executed: only literal values are read, and
anything else where a literal is expected is an error naming the line. A class
counts as a worksheet when a base is named like a worksheet (`...Worksheet` ->
task, `...DB`/`...KB` -> kb, `...Type`/`...REPR` -> type) or is a worksheet class
of the same file. Module-level functions named as a backend API or called in
actions become mock APIs with their parameters, and an `Agent(botname=...,
description=..., starting_prompt=...)` call gives the spec's name and texts.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from pydantic import ValidationError

from ..errors import SpecFormatError
from ..spec.model import Api, ApiParam, EnumValue, Field, Spec, Worksheet
from ..spec.syntax import parse_python
from .action_apis import MOCK_NOTE, action_api_mocks
from .canonical import describe_validation_error
from .markers import strip_action_markers
from .paper_csv import mock_api

_PY_TYPES = {"str": "str", "int": "int", "float": "float", "bool": "bool", "date": "date",
             "time": "time", "datetime": "datetime", "dict": "str", "Any": "str"}
_FIELD_FLAGS = {"optional", "internal", "output", "ask", "dont_ask", "requires_confirmation",
                "confirm", "confirmation", "primary_key", "free_text", "required"}
_IGNORED_KEYWORDS = {"validation", "value", "default", "examples_file", "llm_extract"}


def looks_like_python_classes(text: str) -> bool:
    """Whether `text` is a module of worksheet classes (for content-based detection)."""
    return "class " in text and ("GenieField(" in text or "Worksheet)" in text)


def loads_python_classes(text: str, *, source: str = "<string>") -> Spec:
    """Read a `worksheets.py`-style module into a Spec without running any of it."""
    try:
        tree = parse_python(text)
    except SyntaxError as exc:
        raise SpecFormatError(f"line {exc.lineno}: not valid Python: {exc.msg}", file=source,
                              line=exc.lineno) from exc
    return _Reader(source).read(tree)


def _kind_of_base(name: str) -> str | None:
    if name.endswith("Worksheet"):
        return "task"
    if name.endswith(("DB", "KB", "Database")):
        return "kb"
    if name.endswith(("Type", "REPR")):
        return "type"
    return None


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.enums: dict[str, list[EnumValue]] = {}
        self.kinds: dict[str, str] = {}
        self.worksheets: list[Worksheet] = []
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.meta: dict[str, str] = {}

    def error(self, node: ast.AST, message: str, **context: Any) -> SpecFormatError:
        line = getattr(node, "lineno", None)
        return SpecFormatError(f"line {line}: {message}", file=self.source, line=line, **context)

    # ------------------------------------------------------------ module

    def read(self, tree: ast.Module) -> Spec:
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                self.read_class(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _base_name(node.func).endswith("Agent"):
                self.read_agent(node)
        if not self.worksheets:
            raise SpecFormatError("no worksheet classes found (classes deriving from a GenieWorksheet, "
                                  "GenieDB or GenieType base)", file=self.source)
        apis = self.apis()
        try:
            spec = Spec(name=self.meta.get("botname", "agent"), worksheets=self.worksheets, apis=apis,
                        **{k: v for k, v in self.meta.items() if k in ("description", "starting_prompt")})
            spec.settings.start_worksheet = self.start(spec)
            return spec
        except ValidationError as exc:
            message, context = describe_validation_error(exc, None)
            raise SpecFormatError(message, file=self.source, **context) from exc

    @staticmethod
    def start(spec: Spec) -> str | None:
        """Python needs a class defined before a field can name it, so the entry worksheet comes
        last: the first task worksheet that nothing nests and no predicate guards, kept as the
        start_worksheet setting (the first task worksheet if there is none such)."""
        nested = spec.nested_worksheet_names()
        tasks = spec.task_worksheets()
        roots = [w for w in tasks if w.name not in nested and not w.predicate.strip()]
        return (roots or tasks)[0].name if tasks else None

    def read_agent(self, node: ast.Call) -> None:
        for kw in node.keywords:
            if kw.arg in ("botname", "description", "starting_prompt"):
                value = self.literal(kw.value, f"Agent {kw.arg}", str, optional=True)
                if isinstance(value, str):
                    self.meta[kw.arg] = value

    def apis(self) -> list[Api]:
        apis: list[Api] = []
        for ws in self.worksheets:
            if ws.api and ws.api not in {a.name for a in apis}:
                fn = self.functions.get(ws.api)
                apis.append(self.function_api(fn, f"{ws.name} (backend API)") if fn else mock_api(ws.api, ws.name))
        for api in action_api_mocks(self.worksheets, apis):
            fn = self.functions.get(api.name)
            apis.append(self.function_api(fn, api.description) if fn else api)
        return apis

    def function_api(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, where: str) -> Api:
        """A function the module defines: its parameters and docstring; a mock (never run)."""
        params = [ApiParam(name=a.arg) for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
                  if a.arg not in ("self", "cls")]
        doc = (ast.get_docstring(fn) or "").strip()
        note = where if where.startswith("Declared") else MOCK_NOTE.format(where=where)
        note += f" Defined as Python function '{fn.name}' in the spec module; move it to api.py to run it."
        return Api(name=fn.name, kind="mock", parameters=params, description=f"{note}\n{doc}".strip())

    # ------------------------------------------------------------ classes

    def read_class(self, node: ast.ClassDef) -> None:
        bases = [_base_name(b) for b in node.bases]
        if "Enum" in bases or any(b.endswith("Enum") for b in bases):
            self.enums[node.name] = self.enum_values(node)
            return
        kind = next((self.kinds[b] for b in bases if b in self.kinds), None)
        kind = kind or next((k for k in map(_kind_of_base, bases) if k), None)
        if kind is None:
            return  # a helper class (e.g. an API client), not a worksheet
        self.kinds[node.name] = kind
        inherited = [w for w in self.worksheets if w.name in bases]
        ws = Worksheet(name=node.name, kind=kind)  # type: ignore[arg-type]
        for parent in inherited:
            ws.fields.extend(f.model_copy(deep=True) for f in parent.fields)
        outputs: list[str] = []
        for stmt in node.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                ws.description = ws.description or _clean_doc(stmt.value.value)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
                if not isinstance(target, ast.Name) or stmt.value is None:
                    continue
                self.class_attribute(ws, target.id, stmt.value, outputs)
        for f in ws.fields:
            if f.name in outputs:
                f.kind = "output"
        self.worksheets.append(ws)

    def enum_values(self, node: ast.ClassDef) -> list[EnumValue]:
        values = []
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                value = stmt.value
                text = value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) \
                    else stmt.targets[0].id  # auto() or a number: the member's name is what users say
                values.append(EnumValue(value=text))
        return values

    def class_attribute(self, ws: Worksheet, name: str, value: ast.expr, outputs: list[str]) -> None:
        where = f"{ws.name}.{name}"
        if isinstance(value, ast.Call) and _base_name(value.func).endswith("Field"):
            f = self.field(ws, value, name)
            existing = ws.field(f.name)
            if existing is not None:
                ws.fields[ws.fields.index(existing)] = f
            else:
                ws.fields.append(f)
        elif name == "predicate":
            ws.predicate = strip_action_markers(self.code(value, where))
        elif name == "actions":
            ws.actions = strip_action_markers(self.code(value, where))
        elif name == "backend_api":
            ws.api = (self.literal(value, where, str, optional=True) or "").strip() or None
        elif name == "description":
            ws.description = self.literal(value, where, str, optional=True) or ws.description
        elif name == "outputs" and isinstance(value, (ast.List, ast.Tuple)):
            outputs.extend(e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))

    def field(self, ws: Worksheet, call: ast.Call, attr: str) -> Field:
        where = f"{ws.name}.{attr}"
        if not call.args:
            raise self.error(call, f"{where}: the field needs a type as its first argument",
                             worksheet=ws.name, field=attr)
        type_text, enum_values = self.type_of(call.args[0], where)
        name = attr
        if len(call.args) > 1:
            name = self.literal(call.args[1], f"{where} name", str) or attr
        data: dict[str, Any] = {"name": name, "type": type_text, "enum_values": enum_values}
        flags: dict[str, bool] = {}
        for kw in call.keywords:
            key = kw.arg
            if key is None or key in _IGNORED_KEYWORDS:
                continue
            if key == "description":
                data["description"] = self.literal(kw.value, f"{where} description", str, optional=True) or ""
            elif key in ("predicate", "actions"):
                data[key] = strip_action_markers(self.code(kw.value, f"{where} {key}"))
            elif key in _FIELD_FLAGS:
                flags[key] = bool(self.literal(kw.value, f"{where} {key}", bool))
            elif key == "enum_values":
                items = self.literal(kw.value, f"{where} enum_values", list)
                data["enum_values"] = [EnumValue(value=str(v)) for v in items]
                data["type"] = "Enum" if type_text == "str" else type_text
        data["required"] = not flags.get("optional", False) and flags.get("required", True)
        data["dont_ask"] = flags.get("dont_ask", not flags.get("ask", True))
        data["confirm"] = flags.get("requires_confirmation", flags.get("confirm", flags.get("confirmation", False)))
        data["kind"] = "output" if flags.get("output") else "internal" if flags.get("internal") else "input"
        data["primary_key"] = flags.get("primary_key", False)
        data["free_text"] = flags.get("free_text", False)
        try:
            return Field(**data)
        except ValidationError as exc:
            message, _ = describe_validation_error(exc, None)
            raise self.error(call, f"{where}: {message}", worksheet=ws.name, field=attr) from exc

    def type_of(self, node: ast.expr, where: str) -> tuple[str, list[EnumValue]]:
        """A Python type expression -> the spec's type text (and enum values for an Enum class)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value, []
        if isinstance(node, ast.Subscript) and _base_name(node.value) in ("List", "list"):
            item, values = self.type_of(node.slice, where)
            return f"List[{item}]", values
        name = _base_name(node)
        if not name:
            raise self.error(node, f"{where}: unsupported type expression {ast.dump(node)[:60]}")
        if name in self.enums:
            return "Enum", [v.model_copy() for v in self.enums[name]]
        return _PY_TYPES.get(name, name), []

    # ------------------------------------------------------------ literals

    def code(self, node: ast.expr, where: str) -> str:
        """Predicate or action code: a string, or `Action("...")` around one."""
        if isinstance(node, ast.Call) and _base_name(node.func) in ("Action", "Predicate"):
            if not node.args:
                return ""
            node = node.args[0]
        return self.literal(node, where, str, optional=True) or ""

    def literal(self, node: ast.expr, where: str, kind: type, *, optional: bool = False) -> Any:
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            raise self.error(node, f"{where}: expected a literal {kind.__name__}, found code "
                                   f"'{ast.unparse(node)[:60]}' (the file is never run)") from None
        if value is None and optional:
            return None
        if kind is list and isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, kind):
            raise self.error(node, f"{where}: expected a {kind.__name__}, got {value!r}")
        return value


def _clean_doc(text: str) -> str:
    return inspect.cleandoc(text)
