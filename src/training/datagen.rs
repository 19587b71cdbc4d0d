//! `datagen`: self-play games on several threads, their positions appended to one file in the
//! format of [`record`](super::record), resumable after a kill.
//!
//! Each of `threads` workers owns an engine (one search thread, its own small table) and takes
//! the next game number from a shared counter; game `i` (0-based, counted over the whole file)
//! plays variant `variants[i % variants.len()]` from a random opening drawn with a seed derived
//! from `seed` and `i` ([`selfplay`](super::selfplay) says how a game is played and which
//! positions it keeps). Finished games go to the calling thread, the only writer, which appends
//! them in game order, each as one block ([`data_file`](super::data_file)) in one write.
//! Because a game depends only on its number and the seed, and blocks are written in order, the
//! file does not depend on the thread count, and a resumed run writes what an uninterrupted one
//! would have (given the same seed). The price: a finished game waits in memory while an earlier
//! one is still being played, and is lost if the run is killed then.

use super::data_file::{self, DataFileError, Format};
use super::record::Result01;
use super::selfplay::{play_game, GameSettings, PlayedGame, SelfPlayError};
use crate::board::{Family, Variant};
use crate::search::{Engine, EngineOptions};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The ply limit of a Heian game when none is given.
pub(crate) const HEIAN_MAX_PLIES: usize = 300;
/// The ply limit of a Chu game when none is given.
pub(crate) const CHU_MAX_PLIES: usize = 500;
/// The most worker threads.
pub(crate) const MAX_THREADS: usize = 256;
/// The most nodes per move.
pub(crate) const MAX_NODES: u64 = 1_000_000_000;
/// The longest random opening's centre.
pub(crate) const MAX_RANDOM_PLIES: usize = 200;
/// The range of `--win-cp`: from a pawn to well short of the mate scores.
pub(crate) const MIN_WIN_CP: i32 = 100;
pub(crate) const MAX_WIN_CP: i32 = 20_000;

/// What a `datagen` run does.
#[derive(Clone, Debug)]
pub(crate) struct DatagenConfig {
    /// Variants the games cycle over.
    pub variants: Vec<Variant>,
    /// Games the file should hold when the run ends.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    /// Each worker's table in MiB.
    pub hash_mb: usize,
    /// Centre of the random opening's length in plies.
    pub random_plies: usize,
    /// The seed every game's opening is drawn from.
    pub seed: u64,
    /// The data file, appended to.
    pub out: PathBuf,
    /// The ply limit; `None`: [`HEIAN_MAX_PLIES`] or [`CHU_MAX_PLIES`] by the game's variant.
    pub max_plies: Option<usize>,
    /// Searches at or beyond this score count towards a won adjudication.
    pub win_cp: i32,
    /// The evaluation the games are played with (the embedded nets by default).
    pub eval: crate::search::EvalOptions,
    /// The run's number of its first game: a shard of a larger run plays that run's games
    /// `first_game..first_game + games` (variant and seed follow the run's numbering), so
    /// shards written apart and concatenated in order are the file one run would write.
    pub first_game: usize,
}

/// The games of shard `k` of `n` (0-based) of a run of `games` games: its first game and how
/// many it plays. The shards' ranges are contiguous, never overlap, and cover the run.
pub(crate) fn shard_range(games: usize, k: usize, n: usize) -> (usize, usize) {
    let start = games * k / n;
    let end = games * (k + 1) / n;
    (start, end - start)
}

/// Why a run could not start or stopped.
#[derive(Debug)]
pub(crate) enum DatagenError {
    /// An option is out of range.
    BadOption(String),
    /// The output file cannot be read, resumed or written.
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: DataFileError,
    },
    /// A worker thread could not be started.
    Thread(std::io::Error),
    /// A game could not be played to its end.
    Game(SelfPlayError),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::BadOption(msg) => f.write_str(msg),
            DatagenError::File { path, error } => write!(f, "{}: {error}", path.display()),
            DatagenError::Thread(e) => write!(f, "cannot start a worker thread: {e}"),
            DatagenError::Game(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl DatagenConfig {
    /// Checks every option's range.
    pub(crate) fn check(&self) -> Result<(), DatagenError> {
        let bad = |msg: String| Err(DatagenError::BadOption(msg));
        if self.variants.is_empty() {
            return bad("--variant names no variant".to_string());
        }
        if self.games == 0 {
            return bad("--games must be at least 1".to_string());
        }
        if self.nodes == 0 || self.nodes > MAX_NODES {
            return bad(format!(
                "--nodes must be between 1 and {MAX_NODES}, not {}",
                self.nodes
            ));
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return bad(format!(
                "--threads must be between 1 and {MAX_THREADS}, not {}",
                self.threads
            ));
        }
        crate::search::tt::check_hash_mb(self.hash_mb.saturating_mul(self.threads))
            .map_err(|e| DatagenError::BadOption(format!("--hash (per thread): {e}")))?;
        if self.random_plies > MAX_RANDOM_PLIES {
            return bad(format!(
                "--random-plies must be at most {MAX_RANDOM_PLIES}, not {}",
                self.random_plies
            ));
        }
        if !(MIN_WIN_CP..=MAX_WIN_CP).contains(&self.win_cp) {
            return bad(format!(
                "--win-cp must be between {MIN_WIN_CP} and {MAX_WIN_CP}, not {}",
                self.win_cp
            ));
        }
        if let Some(max) = self.max_plies {
            let longest_opening = self.random_plies + 2;
            if max <= longest_opening {
                return bad(format!(
                    "--max-plies must exceed the longest random opening ({longest_opening} plies), not {max}"
                ));
            }
        }
        Ok(())
    }

    /// The ply limit of a game of `variant`.
    pub(crate) fn max_plies_for(&self, variant: Variant) -> usize {
        self.max_plies.unwrap_or(match variant.family() {
            Family::Heian => HEIAN_MAX_PLIES,
            Family::Chu => CHU_MAX_PLIES,
        })
    }

    fn settings(&self, variant: Variant) -> GameSettings {
        GameSettings {
            nodes: self.nodes,
            random_plies: self.random_plies,
            max_plies: self.max_plies_for(variant),
            win_cp: self.win_cp,
        }
    }
}

/// Where a run stands, after each game written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Progress {
    /// Games in the file now.
    pub games_done: usize,
    /// Games the file will hold at the end.
    pub games_total: usize,
    /// Games the file held before this run.
    pub games_before: usize,
    /// Bytes of an incomplete last game cut off the file before this run.
    pub dropped_bytes: u64,
    /// Positions this run has written.
    pub positions: u64,
    /// Time since this run started.
    pub elapsed: Duration,
}

impl Progress {
    /// Games this run has written, per minute.
    pub(crate) fn games_per_minute(&self) -> f64 {
        let played = (self.games_done - self.games_before) as f64;
        played / (self.elapsed.as_secs_f64() / 60.0).max(1e-9)
    }

    /// The time left at the rate so far; `None` before the first game.
    pub(crate) fn eta(&self) -> Option<Duration> {
        let rate = self.games_per_minute();
        (self.games_done > self.games_before && rate > 0.0).then(|| {
            let left = (self.games_total - self.games_done) as f64;
            Duration::from_secs_f64(left / rate * 60.0)
        })
    }
}

/// What a run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Games the file held before this run.
    pub games_before: usize,
    /// Bytes of an incomplete last game cut off the file before this run.
    pub dropped_bytes: u64,
    /// Games this run played and wrote.
    pub games: usize,
    /// Positions this run wrote.
    pub positions: u64,
    /// Games sente won.
    pub sente_wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games gote won.
    pub gote_wins: usize,
    /// Plies of all this run's games.
    pub plies: u64,
}

impl Summary {
    /// Plies per game, 0 with no games.
    pub(crate) fn average_plies(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }

    fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        self.positions += game.records.len() as u64;
        self.plies += game.plies as u64;
        match game.result {
            Result01::SenteWon => self.sente_wins += 1,
            Result01::Draw => self.draws += 1,
            Result01::GoteWon => self.gote_wins += 1,
        }
    }
}

/// The seed of game `index`: SplitMix64 of the run's seed and the index, so neighbouring games
/// share nothing.
pub(crate) fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One worker: takes the next game number until the run's games are all taken (or `stop`),
/// plays it with its own engine and sends it to the writer.
fn play_games(
    config: &DatagenConfig,
    next_game: &AtomicUsize,
    stop: &AtomicBool,
    sender: &mpsc::Sender<(usize, Result<PlayedGame, SelfPlayError>)>,
) {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: config.hash_mb,
        threads: 1,
        multipv: 1,
        move_overhead: Duration::ZERO,
        eval: config.eval.clone(),
        ..EngineOptions::default()
    });
    while !stop.load(Ordering::Relaxed) {
        let index = next_game.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        let number = config.first_game + index;
        let variant = config.variants[number % config.variants.len()];
        let settings = config.settings(variant);
        let seed = game_seed(config.seed, number);
        let played = play_game(&mut engine, variant, &settings, seed);
        if sender.send((index, played)).is_err() {
            break;
        }
    }
}

/// Plays the games `config.out` still lacks and appends them; `on_progress` hears of each game
/// written (and once before the first). Returns what this run wrote.
pub(crate) fn run(
    config: &DatagenConfig,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    config.check()?;
    let file_error = |error| DatagenError::File {
        path: config.out.clone(),
        error,
    };
    let format = Format::of(&config.out);
    let (mut file, scanned) =
        data_file::open_for_append(&config.out, format).map_err(file_error)?;
    let mut summary = Summary {
        games_before: scanned.games,
        dropped_bytes: scanned.dropped,
        ..Summary::default()
    };
    if scanned.games >= config.games {
        return Ok(summary);
    }
    let started = Instant::now();
    let progress = |summary: &Summary| Progress {
        games_done: summary.games_before + summary.games,
        games_total: config.games,
        games_before: summary.games_before,
        dropped_bytes: summary.dropped_bytes,
        positions: summary.positions,
        elapsed: started.elapsed(),
    };
    on_progress(&progress(&summary));

    let next_game = AtomicUsize::new(scanned.games);
    let stop = AtomicBool::new(false);
    let workers = config.threads.min(config.games - scanned.games);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, Result<PlayedGame, SelfPlayError>)>();
        for id in 0..workers {
            let sender = sender.clone();
            let (next_game, stop) = (&next_game, &stop);
            std::thread::Builder::new()
                .name(format!("shishi-datagen-{id}"))
                .spawn_scoped(scope, move || play_games(config, next_game, stop, &sender))
                .map_err(|e| {
                    stop.store(true, Ordering::Relaxed);
                    DatagenError::Thread(e)
                })?;
        }
        drop(sender);
        // Finished games wait here until every earlier one is written.
        let mut waiting = BTreeMap::new();
        let mut next_to_write = scanned.games;
        for (index, played) in receiver {
            let game = played.map_err(|e| {
                stop.store(true, Ordering::Relaxed);
                DatagenError::Game(e)
            })?;
            waiting.insert(index, game);
            while let Some(game) = waiting.remove(&next_to_write) {
                let block = format.block(config.first_game + next_to_write + 1, &game);
                file.write_all(&block)
                    .and_then(|()| file.flush())
                    .map_err(|e| {
                        stop.store(true, Ordering::Relaxed);
                        file_error(DataFileError::Io(e))
                    })?;
                summary.add(&game);
                next_to_write += 1;
                on_progress(&progress(&summary));
            }
        }
        Ok(summary)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> DatagenConfig {
        DatagenConfig {
            variants: vec![Variant::Heian8x8],
            games: 2,
            nodes: 300,
            threads: 1,
            hash_mb: 1,
            random_plies: 8,
            seed: 1,
            out: PathBuf::from("unused"),
            max_plies: None,
            win_cp: crate::training::selfplay::WIN_CP,
            first_game: 0,
            eval: crate::search::EvalOptions::default(),
        }
    }

    #[test]
    fn options_out_of_range_are_named() {
        let message = |c: DatagenConfig| c.check().unwrap_err().to_string();
        assert!(message(DatagenConfig {
            games: 0,
            ..config()
        })
        .contains("--games"));
        assert!(message(DatagenConfig {
            nodes: 0,
            ..config()
        })
        .contains("--nodes"));
        assert!(message(DatagenConfig {
            win_cp: 50,
            ..config()
        })
        .contains("--win-cp"));
        assert!(message(DatagenConfig {
            threads: 0,
            ..config()
        })
        .contains("--threads"));
        assert!(message(DatagenConfig {
            max_plies: Some(10),
            ..config()
        })
        .contains("--max-plies"));
        assert!(message(DatagenConfig {
            variants: vec![],
            ..config()
        })
        .contains("--variant"));
        assert!(config().check().is_ok());
    }

    #[test]
    fn ply_limits_follow_the_family_unless_given() {
        let c = config();
        assert_eq!(c.max_plies_for(Variant::Heian), HEIAN_MAX_PLIES);
        assert_eq!(c.max_plies_for(Variant::Chushogi), CHU_MAX_PLIES);
        let c = DatagenConfig {
            max_plies: Some(40),
            ..config()
        };
        assert_eq!(c.max_plies_for(Variant::Chushogi), 40);
    }

    #[test]
    fn neighbouring_games_get_unrelated_seeds() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 1), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
