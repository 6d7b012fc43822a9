"""Painters of a display list: PDF (ReportLab), SVG and PNG (Pillow). May import ``generator.layout`` and below."""
