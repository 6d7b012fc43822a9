"""What ``deckwright check`` prints for one game, as plain data made from its check report.

The lines, in order, each to stdout or stderr; whether the game failed; its JUnit suite. The worker that checked
a game sends back this, not the game, and the cache stores it: a game whose inputs are unchanged is printed from
it as it was printed the first time, byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from deckwright.rules.ci.junit import Suite


@dataclass(frozen=True)
class Line:
    text: str  # printed as ``print(text)``: a traceback is one Line of several lines
    to_stderr: bool = False


@dataclass(frozen=True)
class CheckOutput:
    lines: tuple[Line, ...]
    failed: bool
    suite: Suite


def problem_lines(problems, traceback: bool = False) -> list[Line]:
    """One line a problem, sorted, on stderr; with ``traceback``, a rules module's traceback under its line."""
    lines = []
    for problem in problems.sorted():
        lines.append(Line(str(problem), to_stderr=True))
        if traceback and problem.detail:
            lines.append(Line(problem.detail.rstrip(), to_stderr=True))
    return lines


@dataclass(frozen=True)
class ReportOutput:
    """What check prints for a game's report before its layout problems are known, as plain data: a game split
    across the workers (generator.check.run) has its data, examples and rules module checked by one worker, which
    sends back this, while others lay out its faces; ``joined`` puts the two together."""

    head: tuple[Line, ...]  # the game's own problems
    laid_out: bool  # whether its faces are laid out: it loaded, and without errors
    known: frozenset  # the game's own problems, which its layout problems do not repeat
    summary: tuple[str, int, int]  # its slug, cards in decks and decks
    tail: tuple[Line, ...]  # examples, protocol, open questions, readings; the error count of one not laid out
    failed: bool  # by its report alone
    suite: Suite
    traceback: bool


def check_output(report, layout: list, traceback: bool = False) -> CheckOutput:
    """What check prints for ``report`` (``rules.ci.check.GameReport``) and its layout problems ``layout``."""
    return joined(report_output(report, traceback), layout)


def report_output(report, traceback: bool = False) -> ReportOutput:
    """What check prints for ``report``, with room for its layout problems (``joined``)."""
    from deckwright.rules.ci.junit import suite_of

    head = tuple(problem_lines(report.problems, traceback))
    if report.game is None or report.problems.errors:
        tail = (Line(f"{report.folder.name}: {len(report.problems.errors)} error(s)"),)
        return ReportOutput(head, False, frozenset(), ("", 0, 0), tail, True, suite_of(report), traceback)
    game = report.game
    cards = sum(card.count for card in game.cards if card.deck)
    tail = [*_own_code_lines(game), *_example_lines(report, traceback),
            *_conformance_lines(report.conformance, traceback), *_question_lines(game), *_reading_lines(game)]
    return ReportOutput(head, True, frozenset(report.problems.items), (game.slug, cards, len(game.decks)),
                        tuple(Line(text) for text in tail), report.failed, suite_of(report), traceback)


def joined(part: ReportOutput, layout: list) -> CheckOutput:
    """The whole output of a game from its report's (``report_output``) and its layout problems."""
    from deckwright.generator.layout.perface import merged
    from deckwright.rules.ci.junit import layout_case
    from deckwright.rules.engine.narration import plural
    from deckwright.rules.problems import Problems

    if not part.laid_out:
        return CheckOutput(part.head + part.tail, True, part.suite)
    # the game's own problems are printed above; a layout's mistake is one line, however many cards it fails on
    layout = merged(set(layout) - part.known)
    lines = [*part.head, *problem_lines(Problems(layout), part.traceback)]
    errors = [problem for problem in layout if problem.severity == "error"]  # not just small text
    slug, cards, decks = part.summary
    verdict = f"invalid: {plural(len(errors), 'layout error')}" if errors else "valid"
    lines.append(Line(f"{slug}: {plural(cards, 'card')} in {plural(decks, 'deck')}: {verdict}"))
    suite = replace(part.suite, cases=(*part.suite.cases, layout_case(errors))) if errors else part.suite
    return CheckOutput((*lines, *part.tail), bool(errors) or part.failed, suite)


def one_line(item) -> str:
    """What a game folder wrote, as one readable line: control characters escaped, a long text cut."""
    from deckwright.rules.problems import clip, printable

    return printable(clip(str(item)))


def _example_lines(report, traceback: bool) -> list[str]:
    from deckwright.rules.problems import printable

    if not report.examples:
        return []
    verdicts = ("verified", "erratum", "failing", "not run")
    counts = {v: sum(1 for e in report.examples if e.verdict == v) for v in verdicts}
    not_run = f", {counts['not run']} not run (--no-code)" if counts["not run"] else ""
    lines = [f"  examples: {counts['verified']} verified, {counts['erratum']} known errata, {counts['failing']} "
             f"failing{not_run}"]
    for example in report.examples:
        if example.verdict == "erratum":
            continue
        lines.append(f"    {one_line(example)}")
        if example.order and one_line(example) != printable(str(example)):  # cut: the order to write, whole
            lines.append(f"      write: {printable(example.order)}")
        if example.verdict == "failing" and example.log:
            lines += [f"      | {one_line(line)}" for line in example.log]
        if traceback and example.trace:
            lines.append(example.trace.rstrip())
    errata = [e for e in report.examples if e.verdict == "erratum"]
    if errata:
        lines.append(f"  known errata ({len(errata)}; they do not fail the check, and fail once they agree with the "
                     f"rules):")
        lines += [f"    {one_line(example)}" for example in errata]
    return lines


def _own_code_lines(game) -> list[str]:
    """A line saying that the game folder's own Python ran, when it did: a folder from a stranger is safe to
    check only with --no-code, and the check says so rather than run it unseen."""
    from deckwright.rules.games.gamecode import is_own_module

    if not (game.mechanics and game.run_code and is_own_module(game.mechanics)):
        return []
    return [f"  rules module: {game.mechanics}, the game folder's own Python code, ran (--no-code checks "
            f"without running it)"]


def _conformance_lines(conformance, traceback: bool) -> list[str]:
    if conformance is None:
        return []
    if conformance.problems:
        lines = [f"  rules protocol: {len(conformance.problems)} problem(s):"]
        lines += [f"    {problem}" for problem in conformance.problems]
        lines += [trace.rstrip() for trace in (conformance.traces if traceback else ())]
    else:
        played = f", {conformance.games} random games played to the end" if conformance.games else ""
        lines = [f"  rules protocol: conforms{played}"]
    return lines + [f"    note: {note}" for note in conformance.notes]


def _question_lines(game) -> list[str]:
    from deckwright.rules.problems import printable

    if not game.open_questions:
        return []
    return [f"  open questions ({len(game.open_questions)}):",
            *(f"    {printable(str(question))}" for question in game.open_questions)]  # the designer's note, whole


def _reading_lines(game) -> list[str]:
    """The readings register, one line per entry, as open questions are listed."""
    from deckwright.rules.data.model import readings_summary
    from deckwright.rules.problems import printable

    if not game.readings:
        return ["  readings (0): no readings register (readings.yaml)"]
    pending = sum(1 for r in game.readings if r.pending)
    pending_text = f"; {pending} engine change{'s' * (pending != 1)} pending" if pending else ""
    lines = [f"  readings ({len(game.readings)}: {readings_summary(game.readings)}{pending_text}):"]
    for reading in game.readings:
        today = f", plays '{reading.pending.plays}' today" if reading.pending and reading.pending.plays else ""
        pending = f" [engine change pending{today}]" if reading.pending else ""
        lines.append(f"    {printable(str(reading))}: '{printable(str(reading.chosen))}'{pending}")
    return lines
