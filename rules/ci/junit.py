"""``deckwright check --junit FILE``: the check results as standard JUnit XML for CI.

One ``testsuite`` per game and one ``testcase`` per worked example
(classname = the game's slug, name = the example's name). A failing example
is a ``failure`` carrying expected vs actual and the event log; an erratum
is ``skipped`` with a message starting ``erratum:`` (an example not run under
``--no-code``, with ``not run:``). A game whose data does
not validate gets one ``data`` test case failing with its problems, so CI
shows it too.
"""
from __future__ import annotations

import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from deckwright.rules.problems import printable


def junit_tree(reports) -> ET.ElementTree:
    root = ET.Element("testsuites", name="deckwright check")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for report in reports:
        slug = report.game.slug if report.game is not None else report.folder.name
        suite = ET.SubElement(root, "testsuite", name=slug)
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        if report.game is None or report.problems.errors:
            case = ET.SubElement(suite, "testcase", classname=slug, name="data")
            errors = report.problems.errors
            failure = ET.SubElement(case, "failure", message=f"{len(errors)} problem(s) in the game's data")
            failure.text = "\n".join(str(problem) for problem in errors)
            counts["tests"] += 1
            counts["failures"] += 1
        for example in report.examples:
            case = ET.SubElement(suite, "testcase", classname=slug, name=example.name, file=example.loc.file,
                                 line=str(example.loc.line))
            counts["tests"] += 1
            if example.verdict == "failing":
                failure = ET.SubElement(case, "failure", message=f"{example.loc}: {example.message}")
                failure.text = "\n".join([f"{example.loc}: {example.message}", "", "event log:",
                                          *(f"  {line}" for line in example.log)])
                counts["failures"] += 1
            elif example.verdict in ("erratum", "not run"):
                ET.SubElement(case, "skipped", message=f"{example.verdict}: {example.message}")
                counts["skipped"] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("errors", "0")
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


def write_junit(reports, path: Path) -> None:
    """Write the report atomically: a reader never sees half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            junit_tree(reports).write(stream, encoding="utf-8", xml_declaration=True)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
