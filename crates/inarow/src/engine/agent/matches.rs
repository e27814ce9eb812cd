//! Matches between engines: how one game ended ([`GameResult`]; the session plays it,
//! `session::play_game`) and the record of a series with the Elo difference it shows
//! ([`Record`]).

/// How a game between two engines ended, for the first player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The first player won.
    FirstWins,
    /// A draw: by the rules, by repetition, or called at the ply limit.
    Draw,
    /// The second player won.
    SecondWins,
}

/// Wins, draws and losses of one engine against another, and the Elo difference they show.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games the engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the engine lost.
    pub losses: u32,
}

impl Record {
    /// Games played: wins, draws and losses.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score, 0-1 (a draw is a half).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The Elo difference the score shows and the half-width of its 95% interval, from the
    /// games' own variance carried through the logistic curve. With a score of 0 or 1 the
    /// difference is unbounded: `None`.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let elo = -400.0 * (1.0 / s - 1.0).log10();
        let variance = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (variance / n).sqrt();
        let slope = 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
        Some((elo, 1.96 * se * slope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        let even = Record {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (elo, _) = even.elo().expect("finite");
        assert!(elo.abs() < 1e-9);
        // 75% is 190.8 Elo (400 log10 3).
        let t = Record {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (elo, err) = t.elo().expect("finite");
        assert!((elo - 190.85).abs() < 0.01, "{elo}");
        // se = sqrt(0.75 * 0.25 / 100) = 0.0433; slope = 400 / (ln 10 * 0.1875) = 926.5.
        assert!((err - 1.96 * 0.0433 * 926.5).abs() < 0.5, "{err}");
        assert_eq!(
            Record {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
    }
}
