"""What ``deckwright check`` prints for one game, as plain data made from its check report.

The lines, in order, each to stdout or stderr; whether the game failed; its JUnit suite. The worker that checked
a game sends back this, not the game, and the cache stores it: a game whose inputs are unchanged is printed from
it as it was printed the first time, byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass

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


def check_output(report, layout: list, traceback: bool = False) -> CheckOutput:
    """What check prints for ``report`` (``rules.ci.check.GameReport``) and its layout problems ``layout``."""
    from deckwright.rules.ci.junit import suite_of
    from deckwright.rules.problems import Problems

    lines = problem_lines(report.problems, traceback)
    if report.game is None or report.problems.errors:
        lines.append(Line(f"{report.folder.name}: {len(report.problems.errors)} error(s)"))
        return CheckOutput(tuple(lines), True, suite_of(report))
    # the game's own problems are printed above
    lines += problem_lines(Problems(sorted(set(layout) - set(report.problems.items))), traceback)
    layout_errors = sum(1 for problem in set(layout) if problem.severity == "error")  # not just small text
    game = report.game
    cards = sum(card.count for card in game.cards if card.deck)
    verdict = f"invalid: {layout_errors} layout error{'s' * (layout_errors != 1)}" if layout_errors else "valid"
    lines.append(Line(f"{game.slug}: {cards} cards in {len(game.decks)} decks: {verdict}"))
    lines += [Line(text) for text in _example_lines(report, traceback)]
    lines += [Line(text) for text in _conformance_lines(report.conformance, traceback)]
    lines += [Line(text) for text in _question_lines(game)]
    lines += [Line(text) for text in _reading_lines(game)]
    return CheckOutput(tuple(lines), bool(layout_errors) or report.failed, suite_of(report))


def one_line(item) -> str:
    """What a game folder wrote, as one readable line: control characters escaped, a long text cut."""
    from deckwright.rules.problems import clip, printable

    return printable(clip(str(item)))


def _example_lines(report, traceback: bool) -> list[str]:
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
