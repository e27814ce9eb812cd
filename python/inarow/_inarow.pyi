"""Type stubs of the native module ``inarow._inarow`` (re-exported by ``inarow``)."""

from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    final,
)

from ._svg import Svg

__all__ = [
    "Block",
    "Board",
    "Cell",
    "Error",
    "FileError",
    "InputError",
    "InternalError",
    "Line",
    "MemoryLimitError",
    "Move",
    "MoveError",
    "MoveValue",
    "Position",
    "SearchError",
    "Solution",
    "Solver",
    "SpecError",
    "UnsupportedError",
    "__version__",
    "_dataset",
    "_position",
    "_solution",
    "clear_tables",
    "solve_many",
]

__version__: str

class Error(ValueError):
    """What the library reports, with the command line's one-line message: a ValueError."""

    position: int
    """``solve_many`` only: the index in the list of the position that could not be read."""

class SpecError(Error):
    """A game spec that names no game, or a board out of range."""

class MoveError(Error):
    """A move string that cannot be played from its position, or a board that is no position
    of the game."""

    text: str
    """The whole move string (or board) as given."""
    index: int
    """1-based index of the offending move (0: the text is a board, and wrong)."""
    token: str
    """The offending move as written (empty for a board)."""
    reason: str

class InputError(Error):
    """A value that is not what it must be (a number out of range, an unknown name)."""

class UnsupportedError(Error):
    """A request that does not fit the game or another setting."""

class FileError(Error):
    """A file that cannot be read or written, or that is damaged or made for something else."""

class MemoryLimitError(Error):
    """The memory budget (or the machine) cannot hold what was asked (a table too large)."""

class SearchError(Error):
    """A search stopped before it gave what was asked, or could not give it."""

class InternalError(Error):
    """Something that should not happen whatever the input: a bug in the library."""

@final
class Position:
    """A position of a game, as played: immutable; ``play`` returns a new one.

    ``game`` is a spec: ``"connect4"`` (7x6, four in a row), ``"connect4:WxH"``,
    ``"connect4:WxH:kK"``, ``"popout"``, ``"popout:WxH"``, ``"cube"`` (Connect Four 3D),
    ``"qubic"`` or ``"pentago"``. ``moves`` is any notation the command line reads: ``"4453"``
    (columns from 1), ``""`` or ``"-"`` for the start, commas between moves on boards wider
    than 9 (``"10,3,12"``), ``"p4"`` a PopOut pop, the cube's hex columns (``"05af"``), Qubic's
    cells (``"a11d44"``), Pentago's moves (``"d53r"``) or a whole Pentago board (36 characters
    of ``xo.``, or Irving's board name); or a sequence of moves, one each.
    """

    def __new__(cls, game: str = "connect4", moves: Union[str, Sequence[str], None] = None) -> Position: ...
    @property
    def game(self) -> str:
        """The game's spec as the library writes it: ``"connect4:7x6:k4"``, ``"popout:7x6"``."""
    @property
    def moves(self) -> str:
        """The move string from the start (of the game, or of the board given)."""
    @property
    def start(self) -> Optional[str]:
        """The board the position was given as, if it was not moves from the game's start."""
    @property
    def ply(self) -> int:
        """Moves played since the start of the game."""
    @property
    def to_move(self) -> str:
        """``"first"`` or ``"second"``."""
    @property
    def status(self) -> str:
        """``"ongoing"``, ``"first wins"``, ``"second wins"`` or ``"draw"`` (in PopOut also a
        position that comes back)."""
    @property
    def board(self) -> Board:
        """The board as data: shape, cells, lines held, legal moves and what they change."""
    def legal_moves(self) -> List[str]:
        """The legal moves in the game's notation (none once the game is over)."""
    def play(self, move: str) -> Position:
        """The position after ``move``; ``MoveError`` if it is not legal here."""
    def to_json(self) -> str:
        """The position as the JSON API writes it (``GET /api/position``)."""
    def solve(
        self,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        weak: bool = False,
        best_moves: bool = True,
        pv: bool = False,
    ) -> Solution:
        """The value for the side to move: from the built-in opening book where it knows the
        position (Connect Four 7x6: every position to 12 plies; the command line's
        ``solve`` uses it only with ``--book builtin``), from Qubic's winning strategy on its
        line (a proof of who wins, at once; with ``best_moves``, only where the side to move
        loses: all its moves are best), else by the exact solver. ``time`` (seconds) and ``nodes`` limit
        the search (``score`` None and ``stopped`` set when reached); ``weak``: win / draw /
        loss only; ``best_moves``: every move that keeps the value; ``pv``: a line of perfect
        play (a search per ply). Releases the GIL; Ctrl-C raises ``KeyboardInterrupt``."""
    def analyze(self, time: Optional[float] = None) -> List[MoveValue]:
        """Every legal move with its value, best first, as ``inarow analyze``: exact where the
        solver settles it within ``time`` (None: until all are exact), an estimate otherwise.
        Each item unpacks as ``(move, value, exact)``."""
    def best_move(self, think: float = 1.0) -> str:
        """The engine's move after thinking ``think`` seconds (book, exact solver, then the
        evaluation search), as ``inarow play``."""
    def svg(
        self,
        values: Union[
            Sequence[MoveValue],
            Sequence[Tuple[str, Union[int, float, None], bool]],
            Mapping[str, Union[int, float, None]],
            None,
        ] = None,
        *,
        interactive: bool = False,
        selected: Optional[int] = None,
    ) -> Svg:
        """The board as SVG text (an ``inarow.Svg``: a ``str`` that Jupyter draws as the
        picture), drawn as the web page draws it (red the first player's
        stones, yellow the second's, the lines that won crossed out). ``values``: what
        ``analyze`` returns (or ``(move, value, exact)`` items, or a dict from move to value),
        drawn where each move plays: above a column, in an empty cell, a pop on the stone it
        pops, Pentago's best value over the turns in each cell (a turn alone beside its
        arrow). ``interactive``: the web page's board, for a front that plays clicks
        (``inarow.BoardWidget``): no margin nor background, the class ``target`` and
        ``data-move`` on what plays a move, Pentago's cells chosen before their turn a
        ``target`` without ``data-move``. ``selected``: Pentago's cell chosen (its number), its
        turns' values on the arrows."""
    def _repr_svg_(self) -> str:
        """The board as SVG: how Jupyter shows a position."""
    def __eq__(self, other: object, /) -> bool:
        """The same game, board and side to move, however reached."""
    def __hash__(self) -> int: ...

@final
class Solver:
    """A solver of one game that keeps its transposition table across calls.

    ``table_mb``: the table's size in MiB; ``weak``: win / draw / loss only; ``threads``:
    search threads sharing the table (alpha-beta games); ``book``: answer from the game's
    built-in opening book where it knows the position; ``level``: how it plays (``best``, the
    exact solver first; ``alphabeta``, ``mcts``, ``depthN``, ``random``: no ``solve``);
    ``seed``: the random choices of the levels that make them."""

    def __new__(
        cls,
        game: str = "connect4",
        table_mb: int = 64,
        weak: bool = False,
        threads: int = 1,
        book: bool = True,
        level: str = "best",
        seed: int = 1,
    ) -> Solver: ...
    @property
    def game(self) -> str: ...
    @property
    def table_mb(self) -> int: ...
    @property
    def weak(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    @property
    def book(self) -> bool: ...
    @property
    def level(self) -> str:
        """How ``best_move`` and ``choose`` play: ``best``, ``alphabeta``, ``mcts``, ``depthN``,
        ``random``."""
    def solve(
        self,
        position: Union[Position, str],
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        best_moves: bool = False,
        pv: bool = False,
    ) -> Solution:
        """The value of a ``Position`` of this game or a move string, with what the table
        learnt from earlier calls."""
    def analyze(self, position: Union[Position, str], time: Optional[float] = None) -> List[MoveValue]:
        """As ``Position.analyze``, with this solver's table."""
    def best_move(
        self, position: Union[Position, str], think: float = 1.0, seed: Optional[int] = None
    ) -> str:
        """As ``Position.best_move``, with this solver's table."""
    def choose(
        self,
        position: Union[Position, str],
        think: Optional[float] = None,
        seed: Optional[int] = None,
    ) -> MoveValue:
        """The engine's move with its value (``exact`` False where it had to estimate), as
        ``best_move`` chooses it; ``think`` None: no time limit. Where the exact value is
        known, the move is the first, in a random order, that keeps it. ``seed``: this call's
        random choices start from it."""
    def reset(self) -> None:
        """Forgets what the table learnt."""

@final
class Solution:
    """The value of a position for the side to move."""

    @property
    def score(self) -> Optional[int]:
        """Positive: the side to move wins (larger: sooner; on 7x6, 22 minus the winner's
        stones), 0 a draw, negative a loss; 1 / 0 / -1 where only win / draw / loss is known
        (``exact`` False); None when a limit stopped the search."""
    @property
    def outcome(self) -> Optional[str]:
        """``"win"``, ``"draw"`` or ``"loss"`` for the side to move, or None."""
    @property
    def plies(self) -> Optional[int]:
        """For an exact score of a win or a loss: plies to the end under perfect play."""
    @property
    def best_moves(self) -> Optional[List[str]]:
        """Every move that keeps the value (None when not asked for)."""
    @property
    def pv(self) -> Optional[List[str]]:
        """A line of perfect play (None when not asked for)."""
    @property
    def exact(self) -> bool:
        """Whether ``score`` is the exact score, not only win / draw / loss."""
    @property
    def stopped(self) -> Optional[str]:
        """Why the search stopped early (``"time limit reached"``, ``"node limit reached"``,
        ``"interrupted"``), or None."""
    @property
    def proven(self) -> Optional[Tuple[int, int]]:
        """Where a limit stopped the search before the score: the bounds ``(lo, hi)`` on the
        exact score that it had proven (``lo <= score <= hi``), or None (nothing proven yet, or
        only win / draw / loss asked for)."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def time(self) -> float:
        """Seconds the solver spent."""

@final
class MoveValue:
    """A move and its value; unpacks as ``(move, value, exact)``."""

    @property
    def move(self) -> str: ...
    @property
    def value(self) -> Union[int, float, None]:
        """An exact score (in PopOut, Qubic and Pentago, 1 / 0 / -1 for win / draw / loss);
        1 / -1 for a win / loss proven without its distance in a game of exact scores (``kind``
        "outcome"); an estimate (the evaluation, an int; a win rate 0-1, a float); None if not
        reached."""
    @property
    def exact(self) -> bool:
        """Whether the value is the game-theoretic one (not an estimate)."""
    @property
    def kind(self) -> str:
        """``"score"``, ``"outcome"``, ``"heuristic"``, ``"win rate"`` or ``"unknown"``."""
    @property
    def text(self) -> str:
        """The value as ``inarow analyze`` prints it: ``-2``, ``win``, ``~13``, ``~64%``, ``?``."""
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Union[str, int, float, bool, None]: ...
    def __iter__(self) -> Iterator[Union[str, int, float, bool, None]]: ...

@final
class Board:
    """A position's board as data."""

    @property
    def size(self) -> Tuple[int, int, int]:
        """Cells along x, y and z (1 along z on a flat board)."""
    @property
    def k(self) -> int:
        """The stones in a line that win."""
    @property
    def gravity(self) -> Optional[str]:
        """The axis stones fall along: ``"y"`` (Connect Four, PopOut), ``"z"`` (the cube), None."""
    @property
    def to_move(self) -> str: ...
    @property
    def blocks(self) -> Tuple[Block, ...]: ...
    @property
    def cells(self) -> Tuple[Cell, ...]:
        """Every cell, by number ``x + width * (y + height * z)``."""
    @property
    def lines(self) -> Tuple[Line, ...]:
        """The lines of ``k`` a player holds (the winning line)."""
    @property
    def moves(self) -> Tuple[Move, ...]:
        """Every legal move and what it does (none once the game is over)."""
    @property
    def rows(self) -> List[str]:
        """The board drawn as text, top row first (``X``, ``O``, ``.``)."""
    def cell(self, x: int, y: int, z: int = 0) -> Cell:
        """The cell at ``(x, y, z)``; ``IndexError`` off the board."""
    def grid(self) -> List[List[int]]:
        """Owners as 0 (empty), 1 (first), 2 (second): ``grid()[y][x]`` from the bottom row on a
        flat board, ``grid()[z][y][x]`` (levels) on the cube."""

@final
class Cell:
    """One cell of a board."""

    @property
    def index(self) -> int: ...
    @property
    def at(self) -> Tuple[int, int, int]:
        """``(x, y, z)`` from 0: column from the left, row from the bottom, level from the bottom."""
    @property
    def name(self) -> str:
        """The cell in the game's notation (its column where moves name columns)."""
    @property
    def owner(self) -> Optional[str]:
        """``"first"``, ``"second"`` or None."""
    @property
    def block(self) -> int: ...
    @property
    def drawn(self) -> Tuple[int, int]:
        """Where it is drawn in ``Board.rows``: ``(row from the top, column)``."""

@final
class Block:
    """A part of the board drawn as one rectangle (the board, a level, a quadrant)."""

    @property
    def name(self) -> str: ...
    @property
    def origin(self) -> Tuple[int, int, int]: ...
    @property
    def size(self) -> Tuple[int, int, int]: ...
    @property
    def place(self) -> Tuple[int, int]: ...

@final
class Line:
    """A line of ``k`` cells one player holds."""

    @property
    def owner(self) -> str: ...
    @property
    def cells(self) -> List[int]: ...

@final
class Move:
    """A legal move and what it does to the board."""

    @property
    def move(self) -> str: ...
    @property
    def placed(self) -> Optional[int]:
        """The cell the mover's stone goes on."""
    @property
    def popped(self) -> Optional[int]:
        """PopOut: the column (x) whose bottom stone leaves the board."""
    @property
    def turned(self) -> Optional[Tuple[int, bool]]:
        """Pentago: ``(quadrant, clockwise)``."""
    @property
    def changed(self) -> List[int]:
        """Every cell whose owner changes."""

def solve_many(
    game: str,
    positions: Sequence[Union[str, Position]],
    threads: int = 1,
    weak: bool = False,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    table_mb: int = 64,
    book: bool = True,
    best_moves: bool = False,
    pv: bool = False,
) -> List[Solution]:
    """Solves every position, each from a cleared table as ``inarow bench`` does, on
    ``threads`` solvers at once, with the GIL released. ``time`` and ``nodes`` limit each
    position. A position that cannot be read raises before any is solved (its index in
    ``position``). Ctrl-C raises ``KeyboardInterrupt``."""

def clear_tables() -> None:
    """Frees the tables kept between calls of ``Position.solve``, ``analyze``, ``best_move``
    and ``solve_many``."""

def _position(game: str, start: Optional[str], moves: List[str]) -> Position:
    """What a pickled ``Position`` is made from again."""

def _solution(
    score: Optional[int],
    plies: Optional[int],
    best_moves: Optional[List[str]],
    pv: Optional[List[str]],
    exact: bool,
    stopped: Optional[str],
    nodes: int,
    seconds: float,
    proven: Optional[Tuple[int, int]] = None,
) -> Solution:
    """What a pickled ``Solution`` is made from again."""

def _dataset(
    game: str,
    count: int,
    seed: int,
    plies: Optional[Tuple[int, int]] = None,
    time: Optional[float] = None,
    threads: int = 1,
    progress: Optional[Callable[[int], Any]] = None,
) -> Dict[str, Any]:
    """The raw data of ``inarow.dataset``: the board's ``shape``, the ``actions``' names, the
    rows' ``moves`` and flat buffers (bytes) that ``inarow.training`` turns into arrays."""
