"""The pictures ``Position.svg`` returns."""


class Svg(str):
    """An SVG picture: its text (a ``str``, to write to a file or embed), which Jupyter draws as
    the picture when it is a cell's result."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)
