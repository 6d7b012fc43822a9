"""Layout expressions evaluated from Jinja2's parse tree, without generating and compiling Python code.

Compiling one expression through Jinja2 (code generation, then Python's ``compile``) takes about a millisecond,
and reading a game's layouts compiles hundreds; evaluating through ``TemplateExpression`` also builds a
template context each time. ``closure`` turns a parsed expression into nested Python closures that make the
very calls the code Jinja2 generates for ``LayoutSandbox`` makes (``environment.getattr``, ``call_binop``,
``call``, ``joined``, the filters and tests looked up as they run, names resolved as
``context.resolve_or_missing`` would, constants folded by Jinja2's own optimizer at the nodes its code
generator folds them), in the same order, so a value, a sandbox refusal or an error is the same either way.
Nothing is ever passed to ``eval``.

Only Jinja2 3.1's code is mirrored, and only the common node types; for another Jinja2, or anything else (a
slice, ``*args``, an unknown filter, a constant Jinja2 would write as code that does not run, deep nesting, a
generator class other than the sandbox's) ``closure`` gives None and the caller compiles the expression with
Jinja2 as before.
"""
from __future__ import annotations

import copy
import keyword
import math
import operator
from dataclasses import dataclass
from typing import Any, Callable

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateRuntimeError
from jinja2.nodes import EvalContext
from jinja2.optimizer import Optimizer
from jinja2.runtime import Undefined, missing, new_context

from .sandbox import _GuardedCodeGenerator

# The closures mirror the code Jinja2 3.1 generates, and _PassArg is its private name for what a filter is passed
# first: with another Jinja2 (or without that name) every expression is compiled by Jinja2 itself, as before.
try:
    from jinja2.utils import _PassArg
except ImportError:  # pragma: no cover - a Jinja2 other than 3.1
    _PassArg = None
MIRRORED_JINJA = jinja2.__version__.startswith("3.1.") and _PassArg is not None

MAX_DEPTH = 40  # deeper trees are left to Jinja2 (its code nests as Python expressions, these as calls)
_BINARY = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "FloorDiv": "//", "Pow": "**", "Mod": "%"}
_UNARY = {"Pos": ("+", operator.pos), "Neg": ("-", operator.neg), "Not": ("not ", operator.not_)}
_COMPARE = {"eq": operator.eq, "ne": operator.ne, "gt": operator.gt, "gteq": operator.ge, "lt": operator.lt,
            "lteq": operator.le, "in": lambda a, b: a in b, "notin": lambda a, b: a not in b}
_PLAIN_CONSTANTS = (str, int, bool, type(None))
_SPECIAL_NAMES = frozenset({"self"})  # Jinja2's root function binds `self` to a TemplateReference
_SUPPORTED = (nodes.Const, nodes.Name, nodes.Getattr, nodes.Getitem, nodes.BinExpr, nodes.UnaryExpr, nodes.Concat,
              nodes.Compare, nodes.Operand, nodes.CondExpr, nodes.Filter, nodes.Test, nodes.Call, nodes.Keyword,
              nodes.List, nodes.Tuple, nodes.Dict, nodes.Pair)


class _Unsupported(Exception):
    """Found while building: Jinja2 compiles this expression instead."""


class Scope:
    """What one evaluation sees: the values passed, the environment's globals behind them, and (made when a call
    or an operator first needs it) the template context Jinja2's generated code would pass."""

    __slots__ = ("values", "_globals", "_env", "_context")

    def __init__(self, env, values: dict, globals_: Any):
        self.values, self._globals, self._env, self._context = values, globals_, env, None

    def resolve(self, name: str) -> Any:
        """``context.resolve_or_missing``: a context's own vars are empty, its parent is globals updated by values."""
        values = self.values
        return values[name] if name in values else self._globals.get(name, missing)

    @property
    def context(self):
        if self._context is None:
            self._context = new_context(self._env, None, {}, dict(self.values), False, self._globals, None)
        return self._context


@dataclass(frozen=True)
class ClosureExpression:
    """A layout expression ready to evaluate: called like a ``TemplateExpression``, with the context's values."""

    env: Any
    globals: Any
    evaluate: Callable[[Scope], Any]

    def __call__(self, **values: Any) -> Any:
        return self.evaluate(Scope(self.env, values, self.globals))


def closure(env, expr: nodes.Expr) -> ClosureExpression | None:
    """``expr`` (parsed by Jinja2 for ``env``, not yet compiled) as closures; None when Jinja2 must compile it.
    Builds mutate ``expr`` as Jinja2's compiler does (constants folded in place): after None, parse again."""
    if not MIRRORED_JINJA or env.code_generator_class is not _GuardedCodeGenerator or not _supported(env, expr, 0):
        return None
    expr.set_environment(env)
    builder = _Builder(env)
    try:
        evaluate = builder.build(expr)
    except _Unsupported:
        return None
    return ClosureExpression(env, env.make_globals(None), evaluate)


def _supported(env, node: nodes.Node, depth: int) -> bool:
    if depth > MAX_DEPTH or not isinstance(node, _SUPPORTED):
        return False
    if isinstance(node, nodes.Name) and (node.ctx != "load" or node.name in _SPECIAL_NAMES):
        return False
    if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Slice):
        return False
    if isinstance(node, (nodes.Filter, nodes.Test)):
        known = env.filters if isinstance(node, nodes.Filter) else env.tests
        if node.node is None or node.name not in known:
            return False
    if isinstance(node, (nodes.Call, nodes.Filter, nodes.Test)):
        keys = [keyword.key for keyword in node.kwargs]
        if node.dyn_args is not None or node.dyn_kwargs is not None or len(set(keys)) != len(keys) \
                or any(keyword.iskeyword(key) for key in keys):
            return False
    return all(_supported(env, child, depth + 1) for child in node.iter_child_nodes())


def _written_as_itself(value: Any) -> bool:
    """Whether ``repr`` (``str`` for a float), which Jinja2 writes for a constant, reads back as the same value:
    not for inf or nan, which read as names."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, _PLAIN_CONSTANTS):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_written_as_itself(item) for item in value)
    if isinstance(value, dict):
        return all(_written_as_itself(key) and _written_as_itself(item) for key, item in value.items())
    return False


class _Builder:
    """Mirrors ``_GuardedCodeGenerator``: one visit per node type, children built in the order it writes them."""

    def __init__(self, env):
        self.env = env
        self.eval_ctx = EvalContext(env, None)
        self.optimizer = Optimizer(env)
        self.generator = env.code_generator_class

    def build(self, node: nodes.Node) -> Callable[[Scope], Any]:
        name = type(node).__name__
        # where Jinja2's visit is wrapped in ``optimizeconst``, constants are folded first (the sandbox's Concat is not)
        if hasattr(getattr(self.generator, f"visit_{name}"), "__wrapped__"):
            folded = self.optimizer.visit(node, self.eval_ctx)
            if folded != node:
                return self.build(folded)
        return getattr(self, f"_{name}")(node)

    # -- leaves ------------------------------------------------------------

    def _Const(self, node: nodes.Const):  # noqa: N802 (named after the node type)
        value = node.as_const(self.eval_ctx)
        if not _written_as_itself(value):
            raise _Unsupported  # e.g. inf, which Jinja2 writes as a name that fails as it runs
        if isinstance(value, (float, *_PLAIN_CONSTANTS)):
            return lambda scope: value
        # Jinja2 writes repr(value): a list or dict made afresh at each evaluation
        return lambda scope: copy.deepcopy(value)

    def _Name(self, node: nodes.Name):  # noqa: N802
        name, undefined = node.name, self.env.undefined

        def load(scope: Scope) -> Any:
            value = scope.resolve(name)
            return undefined(name=name) if value is missing else value
        return load

    # -- operators -----------------------------------------------------------

    def _binary(self, node: nodes.BinExpr):
        symbol = _BINARY[type(node).__name__]
        left, right = self.build(node.left), self.build(node.right)
        env = self.env
        if symbol in env.intercepted_binops:
            return lambda scope: env.call_binop(scope.context, symbol, left(scope), right(scope))
        function = env.binop_table[symbol]
        return lambda scope: function(left(scope), right(scope))

    _Add = _Sub = _Mul = _Div = _FloorDiv = _Pow = _Mod = _binary

    def _And(self, node: nodes.And):  # noqa: N802
        left, right = self.build(node.left), self.build(node.right)

        def both(scope: Scope) -> Any:
            value = left(scope)
            return right(scope) if value else value
        return both

    def _Or(self, node: nodes.Or):  # noqa: N802
        left, right = self.build(node.left), self.build(node.right)

        def either(scope: Scope) -> Any:
            value = left(scope)
            return value if value else right(scope)
        return either

    def _unary(self, node: nodes.UnaryExpr):
        symbol, function = _UNARY[type(node).__name__]
        operand = self.build(node.node)
        env = self.env
        if symbol in env.intercepted_unops:
            return lambda scope: env.call_unop(scope.context, symbol, operand(scope))
        return lambda scope: function(operand(scope))

    _Pos = _Neg = _Not = _unary

    def _Concat(self, node: nodes.Concat):  # noqa: N802
        parts = [self.build(part) for part in node.nodes]
        env = self.env
        return lambda scope: env.joined(tuple(part(scope) for part in parts))

    def _Compare(self, node: nodes.Compare):  # noqa: N802
        first = self.build(node.expr)
        ops = [(_COMPARE[op.op], self.build(op.expr)) for op in node.ops]
        if len(ops) == 1:
            (function, second), = ops
            return lambda scope: function(first(scope), second(scope))

        def chained(scope: Scope) -> Any:  # Python's a < b < c: b evaluated once, stops at the first false
            value = first(scope)
            for number, (function, operand) in enumerate(ops, start=1):
                following = operand(scope)
                result = function(value, following)
                if number == len(ops) or not result:
                    return result
                value = following
        return chained

    def _CondExpr(self, node: nodes.CondExpr):  # noqa: N802
        chosen, test = self.build(node.expr1), self.build(node.test)
        if node.expr2 is not None:
            other = self.build(node.expr2)
        else:
            message = (f"the inline if-expression on line {node.lineno} evaluated to false and no else section "
                       f"was defined.")

            def other(scope: Scope) -> Any:
                return Undefined(message)

        return lambda scope: chosen(scope) if test(scope) else other(scope)

    # -- lookups and calls -----------------------------------------------------

    def _Getattr(self, node: nodes.Getattr):  # noqa: N802
        target, attribute, env = self.build(node.node), node.attr, self.env
        return lambda scope: env.getattr(target(scope), attribute)

    def _Getitem(self, node: nodes.Getitem):  # noqa: N802
        target, key, env = self.build(node.node), self.build(node.arg), self.env
        return lambda scope: env.getitem(target(scope), key(scope))

    def _arguments(self, node):
        args = [self.build(arg) for arg in node.args]
        kwargs = [(keyword.key, self.build(keyword.value)) for keyword in node.kwargs]
        return args, kwargs

    def _Call(self, node: nodes.Call):  # noqa: N802
        target = self.build(node.node)
        args, kwargs = self._arguments(node)
        env = self.env

        def call(scope: Scope) -> Any:
            function = target(scope)
            values = [arg(scope) for arg in args]
            named = {key: value(scope) for key, value in kwargs}
            return env.call(scope.context, function, *values, **named)
        return call

    def _filter_or_test(self, node, table_name: str):
        # what Jinja2's code passes the filter or test first, fixed when compiled
        passed = _PassArg.from_obj(getattr(self.env, table_name).get(node.name))
        if passed not in (None, _PassArg.context, _PassArg.eval_context, _PassArg.environment):
            raise _Unsupported
        target = self.build(node.node)
        args, kwargs = self._arguments(node)
        name, env, kind = node.name, self.env, table_name[:-1]

        def apply(scope: Scope) -> Any:
            function = getattr(env, table_name).get(name)  # looked up as it runs: Faces.for_game rebinds filters
            first = [] if passed is None else [scope.context if passed is _PassArg.context
                                               else scope.context.eval_ctx if passed is _PassArg.eval_context
                                               else env]
            values = [target(scope), *(arg(scope) for arg in args)]
            named = {key: value(scope) for key, value in kwargs}
            if function is None:
                raise TemplateRuntimeError(f"No {kind} named {name!r} found.")
            return function(*first, *values, **named)
        return apply

    def _Filter(self, node: nodes.Filter):  # noqa: N802
        return self._filter_or_test(node, "filters")

    def _Test(self, node: nodes.Test):  # noqa: N802
        return self._filter_or_test(node, "tests")

    # -- literals --------------------------------------------------------------

    def _List(self, node: nodes.List):  # noqa: N802
        items = [self.build(item) for item in node.items]
        return lambda scope: [item(scope) for item in items]

    def _Tuple(self, node: nodes.Tuple):  # noqa: N802
        items = [self.build(item) for item in node.items]
        return lambda scope: tuple(item(scope) for item in items)

    def _Dict(self, node: nodes.Dict):  # noqa: N802
        pairs = [(self.build(pair.key), self.build(pair.value)) for pair in node.items]
        return lambda scope: {key(scope): value(scope) for key, value in pairs}
