"""``deckwright check --junit FILE``: the check results as standard JUnit XML for CI.

One ``testsuite`` per game and one ``testcase`` per worked example
(classname = the game's slug, name = the example's name; an example named
like one of check's own cases below is named ``NAME (worked example)``). A failing example
is a ``failure`` carrying expected vs actual and the event log; an erratum
is ``skipped`` with a message starting ``erratum:`` (an example not run under
``--no-code``, with ``not run:``). Every other reason check fails a game for is
a failing test case of its own, listing its lines, so CI shows it too: ``data``
(the game's data does not validate), ``rules protocol`` (its rules module
breaks the protocol) and ``layout`` (a card's layout fails; ``layout_case``,
added once the game's faces are laid out), placed at its first line's file and line. Warnings fail nothing.

A game's suite is plain data (``Suite``), made from its report by ``suite_of``: ``check`` keeps it with the rest
of what it printed for an unchanged game, and ``junit_bytes`` makes the file's bytes from suites (the
command writes them: ``generator.output.write_report``).
"""
from __future__ import annotations

from dataclasses import dataclass

from deckwright.rules.problems import printable

OWN_CASES = ("data", "rules protocol", "layout")  # the cases not of a worked example (one so named is told apart)


@dataclass(frozen=True)
class Case:
    """One test case: ``outcome`` is "passed", "failure" or "skipped"; ``file`` None: not in a file."""

    name: str
    outcome: str
    file: str | None = None
    line: int = 0
    message: str = ""
    text: str = ""  # a failure's body


@dataclass(frozen=True)
class Suite:
    name: str  # the game's slug (or folder name, for a game that did not load)
    cases: tuple[Case, ...]


def suite_of(report) -> Suite:
    """The JUnit suite of one game's check report (``rules.ci.check.GameReport``)."""
    cases = []
    if report.game is None or report.problems.errors:
        errors = report.problems.errors
        cases.append(_failed("data", f"{len(errors)} problem(s) in the game's data", errors))
    for example in report.examples:
        where = {"file": example.loc.file, "line": example.loc.line}
        name = f"{example.name} (worked example)" if example.name in OWN_CASES else example.name
        if example.verdict == "failing":
            text = "\n".join([f"{example.loc}: {example.message}", "", "event log:",
                              *(f"  {line}" for line in example.log)])
            cases.append(Case(name, "failure", **where, message=f"{example.loc}: {example.message}", text=text))
        elif example.verdict in ("erratum", "not run"):
            cases.append(Case(name, "skipped", **where, message=f"{example.verdict}: {example.message}"))
        else:
            cases.append(Case(name, "passed", **where))
    if report.conformance is not None and report.conformance.problems:
        problems = report.conformance.problems
        cases.append(_failed("rules protocol", f"the rules module breaks the rules protocol: {len(problems)} "
                                               f"problem(s)", problems))
    return Suite(report.game.slug if report.game is not None else report.folder.name, tuple(cases))


def layout_case(errors) -> Case:
    """The failing ``layout`` test case of a game whose faces do not lay out: one line an error."""
    return _failed("layout", f"{len(errors)} layout error(s)", errors)


def _failed(name: str, message: str, problems) -> Case:
    """A failing case listing ``problems``, placed (``file``, ``line``) at the first, where CI annotates it."""
    first = next((problem.loc for problem in problems), None)
    where = {"file": first.file, "line": first.line} if first is not None and first.file else {}
    return Case(name, "failure", **where, message=message, text="\n".join(str(problem) for problem in problems))


REPORT_NAME = "deckwright check"
# how every report begins: a file that does not is not one of deckwright's, and --junit leaves it alone
OPENING = f"<?xml version='1.0' encoding='utf-8'?>\n<testsuites name=\"{REPORT_NAME}\"".encode()


def junit_tree(suites: list[Suite]):
    """The report as an ``xml.etree.ElementTree.ElementTree``."""
    import xml.etree.ElementTree as ET  # here: a check that writes no report does not import it

    root = ET.Element("testsuites", name=REPORT_NAME)
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for suite in suites:
        element = ET.SubElement(root, "testsuite", name=suite.name)
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for case in suite.cases:
            where = {"file": case.file, "line": str(case.line)} if case.file is not None else {}
            testcase = ET.SubElement(element, "testcase", classname=suite.name, name=case.name, **where)
            counts["tests"] += 1
            if case.outcome == "failure":
                ET.SubElement(testcase, "failure", message=case.message).text = case.text
                counts["failures"] += 1
            elif case.outcome == "skipped":
                ET.SubElement(testcase, "skipped", message=case.message)
                counts["skipped"] += 1
        for key, value in counts.items():
            element.set(key, str(value))
            totals[key] += value
        element.set("errors", "0")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("errors", "0")
    for element in root.iter():  # XML 1.0 has no control characters; a game folder's text may
        for key, value in element.attrib.items():
            element.set(key, printable(value))
        if element.text:
            element.text = printable(element.text, keep_newlines=True)
    ET.indent(root)
    return ET.ElementTree(root)


def junit_bytes(suites: list[Suite]) -> bytes:
    """The report as the bytes of its file (``OPENING`` first)."""
    import io

    stream = io.BytesIO()
    junit_tree(suites).write(stream, encoding="utf-8", xml_declaration=True)
    return stream.getvalue()
