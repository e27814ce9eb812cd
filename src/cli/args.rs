//! The flags that several commands share (the game, limits, books and databases, the solver's
//! method and techniques, the rules left open), parsed by clap and checked into the engine's
//! values.

use clap::Args;
use inarow::Error;
use inarow::game::Repetition;
use inarow::limits::Limits;
use inarow::session::{
    self, Algorithm, BookSource, Driver, Game, Handicap, Scheme, Settings, Techniques, ThreatBudget,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The game, for every command that plays one.
#[derive(Args, Clone, Debug)]
pub struct GameArg {
    /// Game: connect4 (7x6, k=4), connect4:WxH, connect4:WxH:kK, popout (7x6), popout:WxH, cube
    /// (Connect Four 3D), qubic or pentago.
    #[arg(long, short, default_value = "connect4")]
    pub(super) game: String,
}

/// Limits on each search.
#[derive(Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Stop each search after this many seconds (`analyze`: one limit for all its moves).
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Stop each search after this many nodes (`analyze`: one limit for all its moves;
    /// proof-number searches count the positions they expand).
    #[arg(long)]
    nodes: Option<u64>,
}

impl LimitArgs {
    pub(super) fn limits(&self) -> Result<Limits, Error> {
        Ok(Limits {
            time: seconds("--time", self.time)?,
            nodes: self.nodes,
            ..Limits::default()
        })
    }
}

/// A positive number of seconds, checked.
pub(super) fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, Error> {
    value
        .map(|t| inarow::session::seconds(flag, t, None))
        .transpose()
}

/// Answers from a book or a strong solution, before any search.
#[derive(Args, Clone, Debug, Default)]
pub struct KnowledgeArgs {
    /// Answer positions from this opening book (`inarow book build`), or `builtin`: the book
    /// that ships for the game (Connect Four 7x6: every position to 12 plies), which
    /// `solve`, `analyze`, `play`, `match` and `serve` use by default; alpha-beta only.
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// No book, not even the built-in one, and no built-in winning strategy (Qubic's).
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// Answer positions from this strong solution (`inarow retro build`) before searching. In
    /// games that repeat it gives the value of the position itself: earlier positions of the
    /// move string do not count as repetitions.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
}

impl KnowledgeArgs {
    /// The book and the database as the session takes them; `builtin`: the game's built-in
    /// book unless told otherwise (`solve`, `analyze`, `play`, `match`; `bench` and `table`
    /// search, as their figures are the search's). A game's built-in winning strategy is read
    /// unless `--no-book`.
    pub(super) fn apply(
        &self,
        settings: &mut Settings,
        rules: &dyn Game,
        builtin: bool,
    ) -> Result<(), Error> {
        settings.book = match self.book.as_deref() {
            Some("builtin") if !rules.has_builtin_book() => {
                return Err(Error::Unsupported(format!(
                    "--book builtin: there is no built-in book for {} (only for connect4)",
                    rules.name()
                )));
            }
            Some("builtin") => BookSource::Builtin,
            Some(path) => BookSource::File(PathBuf::from(path)),
            // A winning strategy is a proof, which every command reads (its game has no book).
            None if (builtin || rules.has_builtin_strategy()) && !self.no_book => {
                BookSource::Builtin
            }
            None => BookSource::Off,
        };
        settings.database = self.db.as_deref().map(PathBuf::from);
        Ok(())
    }
}

/// The exact engine's game, limits, method and techniques: for `solve`, `analyze`, `bench` and
/// `table`.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub(super) game: GameArg,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    knowledge: KnowledgeArgs,
    /// Only win / draw / loss (1 / 0 / -1), not the exact score.
    #[arg(long)]
    weak: bool,
    /// Also the number of plies to the end of the game under perfect play, for a win or a loss
    /// (`plies=N`). In games that repeat, found after the value by a second search.
    #[arg(long)]
    distance: bool,
    /// Algorithm (default: the game's fastest exact method: gallop for connect4 and cube, dfpn
    /// for popout and qubic). Alpha-beta with its root driver: gallop (from the extremes, then
    /// outward from 0, then bisection), bisect, mtdf, deepening or ab (one full window); a
    /// proof-number search, which gives win / draw / loss only: pns, pn2 or dfpn; minimax, the
    /// exhaustive reference; or tss, threat-space search alone (a win by threats, or `?`).
    #[arg(long)]
    algo: Option<String>,
    /// Memory budget of the proof-number searches, in MiB.
    #[arg(long, default_value_t = 1024)]
    mem_mb: usize,
    /// Start PNS / PN² leaves at 1 / 1 instead of from the number of moves that do not lose at
    /// once (df-pn always uses that number).
    #[arg(long)]
    no_pn_heuristic: bool,
    /// Transposition table size in MiB (0 = none).
    #[arg(long, default_value_t = 64)]
    tt_mb: usize,
    /// Table replacement scheme: new, big or twobig.
    #[arg(long, default_value = "twobig")]
    tt_scheme: Scheme,
    /// Key the table by position only, not by the smallest key over the mirror symmetry.
    #[arg(long)]
    no_symmetry: bool,
    /// Order moves by the game's base order only (centre first), not by threats.
    #[arg(long)]
    no_threat_order: bool,
    /// Do not try the table's best move first.
    #[arg(long)]
    no_tt_move: bool,
    /// Break ordering ties with the history heuristic.
    #[arg(long)]
    history: bool,
    /// No enhanced transposition cutoffs.
    #[arg(long)]
    no_etc: bool,
    /// Threat-space search inside alpha-beta and df-pn: the most threats in a line (0 = off;
    /// default: 6 in alpha-beta, 12 in df-pn). Games without threats pay nothing.
    #[arg(long, value_name = "N")]
    threat_depth: Option<u32>,
    /// Threat-space search inside alpha-beta and df-pn: the most positions one search visits
    /// (default: 200 in alpha-beta, 2000 in df-pn).
    #[arg(long, value_name = "N")]
    threat_nodes: Option<u64>,
    /// Victor's threat rules on gravity boards (Connect Four, the cube), at positions with at
    /// least this many plies left: a bound in alpha-beta, a disproof in df-pn (default: off).
    #[arg(long, value_name = "PLIES")]
    victor_plies: Option<u32>,
    /// Search threads sharing the table (alpha-beta only).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    rules: RuleArgs,
    /// Games that repeat: the side to move must win by this ply (counted from the empty board).
    /// A win under a handicap is a win; anything else proves nothing (exit 3).
    #[arg(long, value_name = "PLY")]
    handicap_depth: Option<u32>,
    /// Games that repeat: the side to move may make at most this many pops that do not win at
    /// once.
    #[arg(long, value_name = "N")]
    handicap_pops: Option<u32>,
}

/// The rules a game leaves open.
#[derive(Args, Clone, Debug)]
pub struct RuleArgs {
    /// Games that repeat (PopOut): the occurrence of a position that ends the game as a draw,
    /// 2 (the PopOut thesis) or 3 (the official rule).
    #[arg(long, default_value_t = 2)]
    pub(super) repetition: u32,
}

impl EngineArgs {
    /// The game under the repetition rule asked for.
    pub(super) fn game(&self) -> Result<Arc<dyn Game>, Error> {
        session::game_under(&self.game.game, Repetition::new(self.rules.repetition)?)
    }

    /// The solver these flags describe, completely; `builtin`: the game's built-in book unless
    /// told otherwise.
    pub(super) fn settings(&self, rules: &dyn Game, builtin: bool) -> Result<Settings, Error> {
        let algorithm = self
            .algo
            .as_deref()
            .map(str::parse::<Algorithm>)
            .transpose()?;
        let driver = self
            .algo
            .as_deref()
            .and_then(|a| a.parse::<Driver>().ok())
            .unwrap_or(Driver::Gallop);
        let threads = threads(self.threads)?;
        if threads > 1 && algorithm.is_some_and(|a| a != Algorithm::AlphaBeta) {
            return Err(Error::Unsupported(format!(
                "--threads {threads}: only the alpha-beta algorithms run on several threads"
            )));
        }
        let defaults = Techniques::default();
        let mut settings = Settings {
            weak: self.weak,
            distance: self.distance,
            table_mb: self.tt_mb,
            memory_mb: self.mem_mb,
            threads,
            algorithm,
            driver,
            techniques: Techniques {
                scheme: self.tt_scheme,
                symmetry: !self.no_symmetry,
                threat_order: !self.no_threat_order,
                tt_move: !self.no_tt_move,
                history: self.history,
                etc: !self.no_etc,
                threat_search: threat_budget(defaults.threat_search, self),
                dfpn_threats: threat_budget(defaults.dfpn_threats, self),
                victor_plies: self.victor_plies.or(defaults.victor_plies),
                pn_heuristic: !self.no_pn_heuristic,
                handicap: Handicap {
                    max_plies: self.handicap_depth,
                    backward_moves: self.handicap_pops,
                },
            },
            ..Settings::default()
        };
        self.knowledge.apply(&mut settings, rules, builtin)?;
        Ok(settings)
    }

    /// `--time`, `--nodes` and Ctrl-C.
    pub(super) fn limits(&self) -> Result<Limits, Error> {
        self.limits.limits()
    }

    /// `--threads`, checked.
    pub(super) fn thread_count(&self) -> Result<usize, Error> {
        threads(self.threads)
    }
}

/// The default budget with the options' changes (`None`: threat-space search off).
fn threat_budget(default: Option<ThreatBudget>, args: &EngineArgs) -> Option<ThreatBudget> {
    let base = default.unwrap_or_default();
    match args.threat_depth.unwrap_or(base.depth) {
        0 => None,
        depth => Some(ThreatBudget {
            depth,
            nodes: args.threat_nodes.unwrap_or(base.nodes),
        }),
    }
}

/// A thread count, checked.
pub(super) fn threads(n: usize) -> Result<usize, Error> {
    if n == 0 || n > 256 {
        return Err(Error::Input(format!(
            "--threads {n}: must be between 1 and 256"
        )));
    }
    Ok(n)
}
