//! What the USI and XBoard sessions share: the option settings, the search engine made from
//! them, and the game (a `GameRecord`, the one owner of the moves played, which judges legality,
//! repetition and the game's end). Options change only through `Core::set_option`: new rules
//! apply to the game at once, and the engine is brought up to date with the settings whenever
//! it is used, so a new hash size, thread count, MultiPV, move overhead or rule reaches the next
//! search the same way in both protocols, whichever command set it. A new variant is left to
//! the front end (USI goes to its start position, XBoard waits for `new` or `variant`).

use super::options::{Changed, OptionError, Settings};
use crate::board::Variant;
use crate::game::GameRecord;
use crate::position::Position;
use crate::search::{Engine, Waker};

/// The settings, the engine and the game of one protocol session.
pub(super) struct Core {
    settings: Settings,
    /// Made on first use.
    engine: Option<Engine>,
    /// Handed to the engine: wakes the protocol loop when a search ends.
    waker: Option<Waker>,
    /// Always under `settings.rules`.
    game: GameRecord,
}

impl Default for Core {
    /// The default settings, and a game at the start position of their variant.
    fn default() -> Self {
        let settings = Settings::default();
        let start = Position::startpos(settings.variant).with_rules(settings.rules);
        Core {
            game: GameRecord::new(start),
            settings,
            engine: None,
            waker: None,
        }
    }
}

impl Core {
    /// The option settings in force.
    pub(super) fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Reads and applies one option (`Settings::set`); new rules apply to the game at once, the
    /// engine follows at its next use. The session acts on a new variant.
    pub(super) fn set_option(&mut self, name: &str, value: &str) -> Result<Changed, OptionError> {
        let before = self.settings.clone();
        let changed = self.settings.set(name, value)?;
        // A new table is allocated now, so that one that cannot be had is refused here.
        let new_table = before.engine.hash_mb != self.settings.engine.hash_mb;
        let made = match &mut self.engine {
            Some(engine) => engine.set_options(self.settings.engine.clone()),
            None if new_table => Engine::try_new(self.settings.engine.clone()).map(|mut engine| {
                engine.set_waker(self.waker.clone());
                self.engine = Some(engine);
            }),
            None => Ok(()),
        };
        if let Err(error) = made {
            self.settings = before;
            let kept = self.settings.engine.hash_mb;
            return Err(OptionError::Memory { error, kept });
        }
        if changed.rules {
            self.game.set_rules(self.settings.rules);
        }
        Ok(changed)
    }

    /// Sets the variant of `position startpos` (XBoard's `new` and `variant`, `loadgame`).
    pub(super) fn set_variant(&mut self, variant: Variant) {
        self.settings.variant = variant;
    }

    /// The game.
    pub(super) fn game(&self) -> &GameRecord {
        &self.game
    }

    /// The game, to play or take back moves.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) fn game_mut(&mut self) -> &mut GameRecord {
        &mut self.game
    }

    /// A game from `start` under the rules set by the options, not yet the session's.
    pub(super) fn game_from(&self, start: Position) -> GameRecord {
        GameRecord::new(start.with_rules(self.settings.rules))
    }

    /// Makes `game` (from `Core::game_from`) the session's game.
    pub(super) fn set_game(&mut self, game: GameRecord) {
        debug_assert_eq!(*game.position().rules(), self.settings.rules);
        self.game = game;
    }

    /// Starts a new game at `start` under the rules set by the options.
    pub(super) fn start_game(&mut self, start: Position) {
        self.game = self.game_from(start);
    }

    /// Who the engine tells when a search ends: the protocol loop's input, so that it answers
    /// at once rather than at its next poll.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) fn set_waker(&mut self, waker: Waker) {
        if let Some(engine) = &mut self.engine {
            engine.set_waker(Some(waker.clone()));
        }
        self.waker = Some(waker);
    }

    /// The engine, made on first use, with the current engine options.
    pub(super) fn engine(&mut self) -> &mut Engine {
        let options = &self.settings.engine;
        match &mut self.engine {
            Some(engine) => {
                if engine.options() != options && engine.set_options(options.clone()).is_err() {
                    // Refused in `set_option` already; the engine keeps its table.
                    self.settings.engine.hash_mb = engine.options().hash_mb;
                }
                engine
            }
            none => {
                let engine = none.insert(Engine::new(options.clone()));
                engine.set_waker(self.waker.clone());
                engine
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, Repetition};

    #[test]
    fn new_rules_reach_the_game_already_played() {
        let mut core = Core::default();
        let mut game = core.game_from(Position::startpos(Variant::Chushogi));
        game.play_text("7i7h", crate::notation::Notation::Usi)
            .unwrap();
        core.set_game(game);
        assert!(core.set_option("RuleSet", "hachu").unwrap().rules);
        assert_eq!(*core.game().position().rules(), Preset::Hachu.rules());
        assert_eq!(core.game().plies(), 1);
        core.set_option("Repetition", "fourfold").unwrap();
        assert_eq!(
            core.game().position().rules().repetition,
            Repetition::Fourfold
        );
    }
}
