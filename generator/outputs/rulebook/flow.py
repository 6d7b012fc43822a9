"""Flowables that arrange others: headings kept with the start of what follows them, a float of card
pictures beside the text, an indented panel."""
from __future__ import annotations

from reportlab.platypus import KeepTogether, ListFlowable, Spacer
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak
from reportlab.platypus.flowables import ImageAndFlowables


class KeepWithNext(KeepTogether):
    """Headings in a row and what follows them: together on this page if the headings and at least the first
    piece of the next flowable fit (a table's head and two rows, two lines of a paragraph), else all on the next.
    Unlike ``KeepTogether`` a long section does not jump to a new page only because it is long, and headings
    taller together than a page are not kept: they break where the page ends."""

    def __init__(self, headings: list, following):
        super().__init__([*headings, following])

    def split(self, available_width, available_height):
        *headings, following = self._content
        frame = getattr(self, "_frame", None)
        at_top = getattr(frame, "_atTop", False)
        stack = self._headings_height(headings, following, available_width, available_height)
        room = available_height - stack
        if room > 0:
            fits = following.wrapOn(self.canv, available_width, room)[1] <= room
            if fits:
                return [*headings, following]
            parts = following.splitOn(self.canv, available_width, room)
            if parts and not isinstance(parts[0], ActionFlowable) and parts[0].wrapOn(
                    self.canv, available_width, room)[1] <= room:
                return [*headings, *parts]
        if at_top or stack > getattr(frame, "_height", stack):  # no page would hold them: break where they are
            return [*headings, following]
        return [FrameBreak(), self]  # to split again at the top of the next page

    def _headings_height(self, headings: list, following, available_width, available_height) -> float:
        """The headings' height with the space between them and after the last."""
        height = 0.0
        for heading, after in zip(headings, [*headings[1:], following]):
            height += heading.wrapOn(self.canv, available_width, available_height)[1]
            height += max(heading.getSpaceAfter(), after.getSpaceBefore())
        return height

    def wrap(self, available_width, available_height):
        """Too tall, so that the frame asks ``split``; without measuring the content, which ``split`` does."""
        return available_width, 0xFFFFFF


class Float(ImageAndFlowables):
    """Card pictures on the right, the text beside them and on below."""

    def __init__(self, pictures, flowables, gap: float):
        # A list goes in as its items: ImageAndFlowables opens containers, and a ListFlowable that has been
        # wrapped once cannot be opened again.
        opened = []
        for flowable in flowables:
            if isinstance(flowable, ListFlowable):
                opened += [*flowable._content, Spacer(1, flowable.getSpaceAfter())]
            else:
                opened.append(flowable)
        super().__init__(pictures, opened, imageLeftPadding=gap, imageRightPadding=0, imageTopPadding=2,
                         imageBottomPadding=gap * 0.6, imageSide="right")
