"""The sandbox every template renders in, bounded.

A campaign's own templates are a stranger's data (a campaign shared by a
co-MJ, an audited bundle): they render in jinja2's `SandboxedEnvironment` (no
attribute starting with `_`, no unsafe callable), and whatever they ask, one
rendering does a bounded amount of work and builds bounded values:

- steps: every loop iteration, every number `range` gives, every call (a
  filter, a method; a macro's MACRO_STEPS) counts; MAX_STEPS in one rendering;
- values: no text, list or number a template computes is larger than
  MAX_VALUE characters or items (MAX_INT_BITS for a number), checked before
  it is built where an operation can multiply sizes (`*`, `**`, `+`, `~`,
  `%`, `format`, `join`, `replace`, `indent`, `wordwrap`, a width given to
  `center` or `ljust`...) and on every result;
- text: every piece a rendering puts together (in macros and captured blocks
  too) counts; MAX_PRODUCED_CHARS in one rendering; the post itself is at most
  MAX_OUTPUT_CHARS (pbp.render.render).

A template going beyond is refused (`SecurityError`, named with its file and
line by pbp.render.render). pbp's own templates use a small part of each budget.
"""

from __future__ import annotations

import functools
import itertools
import re
import string

from jinja2 import nodes, pass_environment
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Namespace
from jinja2.sandbox import SandboxedEnvironment, SecurityError

MAX_STEPS = 250_000  # a turn's posts take some thousands
#: what a call to a macro costs, in steps: some ten times a filter's or a loop iteration's CPU time
MACRO_STEPS = 10
MAX_VALUE = 1_000_000
MAX_PRODUCED_CHARS = 16 * 1024 * 1024
MAX_EXPONENT = 1_000
MAX_INT_BITS = 100_000
#: list and dict methods that make their object larger: checked after the call
GROWING = frozenset({"append", "extend", "insert", "update", "setdefault", "add"})
_DICT_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))
_CONTAINERS = (list, tuple, set, frozenset, dict, range, Namespace, *_DICT_VIEWS)
#: filters and str methods whose result can be much larger than their arguments (`_estimate`)
AMPLIFIERS = frozenset({"join", "replace", "indent", "wordwrap", "format"})
#: a width or precision in a %-format (`%-10.3f`, `%*d`)
_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(\*|\d+)?(?:\.(\*|\d+))?")


def size(value, limit: int = MAX_VALUE) -> int:
    """How large a value's text would be, roughly: characters of a text, items
    of a list or mapping counted through every level (a list holding one long
    text a thousand times counts it a thousand times: its text writes it so).
    Stops counting past `limit`."""
    if isinstance(value, str):  # most values: one look
        return len(value)
    if not isinstance(value, _CONTAINERS):
        return _scalar_size(value)
    total, pending = 0, [value]
    while pending and total <= limit:
        item = pending.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            total += 1 + 2 * len(item)
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, Namespace):
            pending.append(dict(item._Namespace__attrs))  # its text is its attributes' (`<Namespace {...}>`)
        elif isinstance(item, range):
            total += _range_length(item)
        elif isinstance(item, _CONTAINERS):
            total += 1 + len(item)
            pending.extend(item)
        else:
            total += _scalar_size(item)
    return total


def _scalar_size(value) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() // 3 + 1
    return 1


def _range_length(numbers: range) -> int:
    try:
        return len(numbers)
    except OverflowError:  # more than sys.maxsize numbers
        return MAX_VALUE + 1


def _check_size(amount: int, what: str) -> None:
    if amount > MAX_VALUE:
        raise SecurityError(f"{what} of {amount} characters or items, over {MAX_VALUE}")


def _check_int(value, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise SecurityError(f"{what}: a number of {value.bit_length()} bits, over {MAX_INT_BITS}")


class Budget:
    """What one rendering may still do (see the module's docstring)."""

    def __init__(self):
        self.steps = MAX_STEPS
        self.produced = MAX_PRODUCED_CHARS

    def step(self, count: int = 1) -> None:
        self.steps -= count
        if self.steps < 0:
            raise SecurityError(f"over {MAX_STEPS} loop iterations and calls in one rendering")

    def produce(self, chars: int) -> None:
        self.produced -= chars
        if self.produced < 0:
            raise SecurityError(f"over {MAX_PRODUCED_CHARS} characters put together in one rendering")

    def range(self, *args) -> range:
        numbers = range(*args)
        self.step(_range_length(numbers))
        return numbers

    def loop(self, iterable):
        """A `{% for %}`'s items, each one a step (a `range` counted when made)."""
        if isinstance(iterable, range):
            yield from iterable
            return
        for item in iterable:
            self.step()
            yield item


# -- what an operation would build, before it is built --------------------------------

def _arguments(what: str, args, kwargs) -> None:
    """Every call and filter: its arguments' size, and no number beyond a value's size
    (a width, a count: `center(10**9)`)."""
    total = 0
    for value in itertools.chain(args, kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_VALUE:
            shown = value if value.bit_length() <= 64 else f"of {len(str(abs(value)))} digits"
            raise SecurityError(f"{what}: the number {shown} is over {MAX_VALUE}")
        total += size(value)
    _check_size(total, f"{what}: arguments")


def _percent_size(template: str, values) -> int:
    """The most a %-format can write: its text, its widths, each field once per value."""
    specs = _PERCENT_SPEC.findall(template)
    widths = sum(int(w) for spec in specs for w in spec if w.isdigit())
    return len(template) + widths + len(specs) * size(values)


def _format_size(template: str, args, kwargs) -> int:
    """The most a str.format can write: its text, its widths, each field once per argument."""
    fields = widths = 0
    for _, name, spec, _ in string.Formatter().parse(template):
        if name is not None:
            fields += 1
            widths += sum(int(n) for n in re.findall(r"\d+", spec or "")) + (MAX_VALUE + 1 if "{" in (spec or "") else 0)
    return len(template) + widths + fields * (size(list(args)) + size(dict(kwargs)))


def _joined_size(items: list, sep) -> int:
    return size(items) + len(items) * size(sep)


def _replaced_size(text, old, new, count=-1) -> int:
    text, old, new = str(text), str(old), str(new)
    found = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    return len(text) + found * max(0, len(new) - len(old))


def _lines_size(text, prefix) -> int:
    """`indent`, `wordwrap`: each line of the text gets a prefix (at most one line a character)."""
    text = str(text)
    return len(text) + (len(text) + 1) * size(prefix if isinstance(prefix, str) else " " * int(prefix or 0))


def _materialized(args: tuple, index: int) -> tuple:
    """`join` reads its items once: taken as a list (at most MAX_VALUE of them) to be measured first."""
    if len(args) <= index or isinstance(args[index], (list, tuple, str)):
        return args
    items = list(itertools.islice(iter(args[index]), MAX_VALUE + 1))
    _check_size(len(items), "join: items")
    return args[:index] + (items,) + args[index + 1:]


def _estimate(name: str, args: tuple, kwargs: dict) -> int:
    """What filter or method `name` would build from these arguments (0: nothing more
    than its arguments' size, checked by `_arguments`)."""
    if name == "join" and args:
        return _joined_size(list(args[0]), args[1] if len(args) > 1 else kwargs.get("d", ""))
    if name == "replace" and len(args) >= 3:
        return _replaced_size(*args[:4])
    if name == "indent" and args:
        return _lines_size(args[0], args[1] if len(args) > 1 else kwargs.get("width", 4))
    if name == "wordwrap" and args:
        return _lines_size(args[0], args[3] if len(args) > 3 else kwargs.get("wrapstring") or "\n")
    if name == "format" and args and isinstance(args[0], str):
        return _percent_size(args[0], list(args[1:]) + list(kwargs.values()))
    return 0


# -- the environment ------------------------------------------------------------------------

@pass_environment
def loop_items(environment: "BoundedEnvironment", iterable):
    """A `{% for %}`'s iterable, its items counted (`Budget.loop`): the parser's
    loops are given it (`BoundedEnvironment._parse`)."""
    return environment.budget.loop(iterable)


class BoundedCodeGenerator(CodeGenerator):
    """jinja2's code, with two hooks into the rendering's budget: `~` (a
    concatenation measured first) and the buffers macros and captured blocks
    write into (`ProducedBuffer`)."""

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        """`a ~ b`, as jinja2 writes it (the same joining function), measured first."""
        if frame.eval_ctx.volatile:
            join = "(markup_join if context.eval_ctx.volatile else str_join)"
        else:
            join = "markup_join" if frame.eval_ctx.autoescape else "str_join"
        self.write(f"environment.bounded_concat({join}, (")
        for part in node.nodes:
            self.visit(part, frame)
            self.write(", ")
        self.write("))")

    def buffer(self, frame) -> None:
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.produced_buffer()")


class ProducedBuffer(list):
    """A macro's or a captured block's pieces, each counted as produced."""

    __slots__ = ("budget",)

    def __init__(self, budget: Budget):
        super().__init__()
        self.budget = budget

    def append(self, piece) -> None:
        self.budget.produce(len(piece) if isinstance(piece, str) else 1)
        super().append(piece)

    def extend(self, pieces) -> None:
        pieces = list(pieces)
        self.budget.produce(sum(len(p) if isinstance(p, str) else 1 for p in pieces))
        super().extend(pieces)


class BoundedEnvironment(SandboxedEnvironment):
    """Templates run sandboxed and bounded (the module's docstring). `e.data.items`
    means the key "items", not the dict method: event data keys win over dict
    attributes."""

    intercepted_binops = frozenset(["+", "-", "*", "/", "//", "%", "**"])
    code_generator_class = BoundedCodeGenerator

    def __init__(self, *args, finalize=None, **kwargs):
        def bounded_finalize(value):
            """A value written (`{{ x }}`) is measured before it becomes text."""
            if not isinstance(value, str):
                _check_size(size(value), "a value written")
            return finalize(value) if finalize is not None else value

        super().__init__(*args, finalize=bounded_finalize, **kwargs)
        self.budget = Budget()
        # `random` draws from Python's own generator: a post must come out the same at every replay
        self.filters = {name: self._bounded_filter(name, f) for name, f in self.filters.items() if name != "random"}
        self.globals["range"] = self.range  # counted in the budget of the rendering
        del self.globals["lipsum"]  # random text, of any length asked: nothing a post needs

    def _parse(self, source, name, filename):
        tree = super()._parse(source, name, filename)
        for loop in list(tree.find_all(nodes.For)):
            loop.iter = nodes.Call(nodes.ImportedName(f"{__name__}.loop_items"), [loop.iter], [], None, None,
                                   lineno=loop.iter.lineno)
        return tree

    def getattr(self, obj, attribute):
        if type(obj) is dict:  # one lookup, not `in` then `[]`: templates read event data all the time
            try:
                return obj[attribute]
            except KeyError:
                pass
        elif isinstance(obj, dict) and attribute in obj:  # (a defaultdict would make up the key)
            return obj[attribute]
        return SandboxedEnvironment.getattr(self, obj, attribute)

    def range(self, *args) -> range:
        return self.budget.range(*args)

    def produced_buffer(self) -> ProducedBuffer:
        return ProducedBuffer(self.budget)

    def bounded_concat(self, join, parts: tuple) -> str:
        """`a ~ b`: the parts measured, then joined as jinja2 joins them."""
        _check_size(sum(size(part) for part in parts), "~: a text")
        return self._result("~", join(parts))

    # -- operators -----------------------------------------------------------------
    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, int) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"exponent {right} over {MAX_EXPONENT}")
        self._before_binop(operator, left, right)
        return self._result(operator, SandboxedEnvironment.call_binop(self, context, operator, left, right))

    def _before_binop(self, operator, left, right) -> None:
        if operator == "*" and isinstance(left, int) != isinstance(right, int):
            sequence, times = (right, left) if isinstance(left, int) else (left, right)
            if hasattr(sequence, "__len__") and times * size(sequence) > MAX_VALUE:
                raise SecurityError(f"a repeated value of {times * size(sequence)} items, over {MAX_VALUE}")
        elif operator in ("*", "**") and isinstance(left, int) and isinstance(right, int):
            bits = left.bit_length() + right.bit_length() if operator == "*" else left.bit_length() * abs(right)
            if bits > MAX_INT_BITS:
                raise SecurityError(f"{operator}: a number of about {bits} bits, over {MAX_INT_BITS}")
        elif operator == "+" and not isinstance(left, (int, float)):
            _check_size(size(left) + size(right), "+: a value")
        elif operator == "%" and isinstance(left, str):
            _check_size(_percent_size(left, right), "%: a text")

    def _result(self, what: str, value):
        if isinstance(value, str):
            _check_size(len(value), f"{what}: a text")
            self.budget.produce(len(value))
        elif isinstance(value, (list, tuple, dict, set)):
            _check_size(len(value), f"{what}: a value")
        else:
            _check_int(value, what)
        return value

    # -- calls and filters ---------------------------------------------------------
    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja2's signature
        if __obj is loop_items:  # a loop: its items are counted, not the call
            return loop_items(__self, *args)
        is_macro = hasattr(__obj, "_invoke")
        __self.budget.step(MACRO_STEPS if is_macro else 1)
        name = getattr(__obj, "__name__", "call")
        if not is_macro:  # a macro's arguments are the template's own: it is counted by its work
            _arguments(name, args, kwargs)
            owner = getattr(__obj, "__self__", None)
            if name == "join":  # str.join(items), and pbp's m.join(items, sep)
                args = _materialized(args, 0)
                sep = owner if isinstance(owner, str) else args[1] if len(args) > 1 else kwargs.get("sep", "")
                _check_size(_joined_size(list(args[0]) if args else [], sep), "join: a text")
            elif name in AMPLIFIERS and isinstance(owner, str):
                _check_size(_estimate(name, (owner, *args), kwargs), f"{name}: a text")
        result = SandboxedEnvironment.call(__self, __context, __obj, *args, **kwargs)
        owner = getattr(__obj, "__self__", None)
        if name in GROWING and isinstance(owner, (list, dict, set)):
            _check_size(len(owner), f"{name}: a value")
        return __self._result(name, result)

    def wrap_str_format(self, value):
        if not isinstance(value.__self__ if hasattr(value, "__self__") else None, str):
            return None  # (jinja2 wraps str.format and str.format_map only)
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        template = value.__self__

        @functools.wraps(wrapped)
        def bounded(*args, **kwargs):
            _check_size(_format_size(template, args, kwargs if value.__name__ == "format" else
                                     (args[0] if args else {})), f"{value.__name__}: a text")
            return wrapped(*args, **kwargs)

        return bounded

    def _bounded_filter(self, name: str, func):
        if name == "sum":
            func = _numbers_only(func)

        passed = 1 if getattr(func, "jinja_pass_arg", None) is not None else 0  # the context... jinja2 gives first
        amplifies = name in AMPLIFIERS

        @functools.wraps(func)  # keeps jinja2's pass_context... marks
        def bounded(*args, **kwargs):
            self.budget.step()
            data = args[passed:]
            _arguments(name, data, kwargs)
            if amplifies:
                if name == "join":
                    data = _materialized(data, 0)
                    args = args[:passed] + data
                _check_size(_estimate(name, data, kwargs), f"{name}: a text")
            return self._result(name, func(*args, **kwargs))

        return bounded


def _numbers_only(func):
    """`sum` adds numbers: a list start would make it copy lists again and again."""
    @functools.wraps(func)
    def summed(*args, **kwargs):
        start = kwargs.get("start", args[-1] if len(args) > 3 else 0)
        if not isinstance(start, (int, float)):
            raise SecurityError("sum: a start that is not a number")
        return func(*args, **kwargs)

    return summed
