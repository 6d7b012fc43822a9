"""The names of the rulebook PDFs (``outputs.rulebook``), for what only needs to find them: importing the
rulebook itself costs a build 0.2 s of ReportLab's platypus, which a game without rulebook pages never uses."""

FULL = "rulebook.pdf"  # under print/
BOOKLET = "rulebook-booklet.pdf"  # under print/
PRINTSHOP = "rulebook.pdf"  # under print/printshop/
