//! Game specs (`connect4`, `connect4:WxH`, `connect4:WxH:kK`, `popout`, `popout:WxH`), parsed once
//! and turned into a concrete position type; [`with_game!`](crate::with_game) dispatches to monomorphised code.

use super::connect::{Connect, Dims, Sized, Standard};
use super::popout::PopOut;
use std::fmt;
use std::str::FromStr;

/// A game and its parameters, as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
    Connect {
        width: u32,
        height: u32,
        k: u32,
    },
    /// PopOut, four in a row; boards of at most 64 bits (`(height + 1) * width`).
    PopOut {
        width: u32,
        height: u32,
    },
}

impl Default for GameSpec {
    fn default() -> Self {
        GameSpec::Connect {
            width: 7,
            height: 6,
            k: 4,
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Connect { width, height, k } => write!(f, "connect4:{width}x{height}:k{k}"),
            GameSpec::PopOut { width, height } => write!(f, "popout:{width}x{height}"),
        }
    }
}

impl FromStr for GameSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("bad game spec '{s}': {why}");
        let mut parts = s.trim().split(':');
        let name = parts.next().unwrap_or_default();
        let size = |part: Option<&str>| -> Result<(u32, u32), String> {
            match part {
                None => Ok((7, 6)),
                Some(size) => {
                    let (w, h) = size
                        .split_once('x')
                        .ok_or_else(|| bad("the size must look like 7x6"))?;
                    let w = w.parse().map_err(|_| bad("width is not a number"))?;
                    let h = h.parse().map_err(|_| bad("height is not a number"))?;
                    Ok((w, h))
                }
            }
        };
        match name {
            "connect4" => {
                let (width, height) = size(parts.next())?;
                let k = match parts.next() {
                    None => 4,
                    Some(k) => k
                        .strip_prefix('k')
                        .and_then(|k| k.parse().ok())
                        .ok_or_else(|| bad("k must look like k4"))?,
                };
                if parts.next().is_some() {
                    return Err(bad("too many fields; expected connect4:WxH:kK"));
                }
                Dims::new(width, height, k).map_err(|e| bad(&e))?;
                Ok(GameSpec::Connect { width, height, k })
            }
            "popout" => {
                let (width, height) = size(parts.next())?;
                if parts.next().is_some() {
                    return Err(bad("too many fields; expected popout or popout:WxH"));
                }
                let dims = Dims::new(width, height, 4).map_err(|e| bad(&e))?;
                if !dims.fits_u64() {
                    return Err(bad(&format!(
                        "board {width}x{height} is too large for popout: (height + 1) * width = \
                         {} bits, at most 64",
                        dims.board_bit_count()
                    )));
                }
                Ok(GameSpec::PopOut { width, height })
            }
            _ => Err(bad(
                "unknown game; expected connect4, connect4:WxH, connect4:WxH:kK, popout or \
                 popout:WxH",
            )),
        }
    }
}

/// The empty board of a spec, as one of the concrete position types.
#[derive(Copy, Clone, Debug)]
pub enum AnyGame {
    /// 7x6, k = 4: every mask a compile-time constant.
    Standard(Connect<u64, Standard>),
    /// Any board that fits 64 bits.
    Narrow(Connect<u64, Sized>),
    /// Boards up to 128 bits.
    Wide(Connect<u128, Sized>),
    /// PopOut 7x6: every mask a compile-time constant.
    PopOutStandard(PopOut<u64, Standard>),
    /// PopOut on any board that fits 64 bits.
    PopOutNarrow(PopOut<u64, Sized>),
}

impl GameSpec {
    /// The empty board, on the fastest representation that holds it.
    pub fn start(&self) -> AnyGame {
        match *self {
            GameSpec::Connect {
                width: 7,
                height: 6,
                k: 4,
            } => AnyGame::Standard(Connect::new(Standard)),
            GameSpec::Connect { width, height, k } => {
                let dims = Dims::new(width, height, k).expect("spec was validated");
                if dims.fits_u64() {
                    AnyGame::Narrow(Connect::new(Sized::new(dims)))
                } else {
                    AnyGame::Wide(Connect::new(Sized::new(dims)))
                }
            }
            GameSpec::PopOut {
                width: 7,
                height: 6,
            } => AnyGame::PopOutStandard(PopOut::new(Standard)),
            GameSpec::PopOut { width, height } => {
                let dims = Dims::new(width, height, 4).expect("spec was validated");
                AnyGame::PopOutNarrow(PopOut::new(Sized::new(dims)))
            }
        }
    }
}

/// Runs `$body` with `$g` bound to the concrete empty board inside an [`AnyGame`].
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::Standard($g) => $body,
            $crate::game::AnyGame::Narrow($g) => $body,
            $crate::game::AnyGame::Wide($g) => $body,
            $crate::game::AnyGame::PopOutStandard($g) => $body,
            $crate::game::AnyGame::PopOutNarrow($g) => $body,
        }
    };
}
