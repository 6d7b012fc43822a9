"""Flowables that arrange others: a heading kept with the start of what follows it, a float of card
pictures beside the text, an indented panel."""
from __future__ import annotations

from reportlab.platypus import KeepTogether, ListFlowable, Spacer
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak
from reportlab.platypus.flowables import ImageAndFlowables


class KeepWithNext(KeepTogether):
    """A heading and what follows it: together on this page if the heading and at least the first piece
    of the next flowable fit (a table's head and two rows, two lines of a paragraph), else both on the next.
    Unlike ``KeepTogether`` a long section does not jump to a new page only because it is long."""

    def __init__(self, heading, following):
        super().__init__([heading, following])

    def split(self, available_width, available_height):
        heading, following = self._content
        frame = getattr(self, "_frame", None)
        at_top = getattr(frame, "_atTop", False)
        height = heading.wrapOn(self.canv, available_width, available_height)[1]
        height += max(heading.getSpaceAfter(), following.getSpaceBefore())
        room = available_height - height
        if room > 0:
            fits = following.wrapOn(self.canv, available_width, room)[1] <= room
            if fits:
                return [heading, following]
            parts = following.splitOn(self.canv, available_width, room)
            if parts and not isinstance(parts[0], ActionFlowable) and parts[0].wrapOn(
                    self.canv, available_width, room)[1] <= room:
                return [heading, *parts]
        return [heading, following] if at_top else [FrameBreak(), heading, following]


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
