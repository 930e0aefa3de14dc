//! A cube decision settled by rollout: the no-double and the double/take
//! lines rolled out with the same dice, read as `gammon cube` reads its
//! search (the same analysis, verdict and explanation), with standard
//! errors.

use super::{CubeQuestion, CubeReport, Engine, EngineError, MatchUnits, Request};
use crate::cube::{analysis_of_values, Stakes};
use crate::met::Met;
use crate::rollout::{match_chances, rollout_cube_decision, CubeLines, Estimate, RolloutProgress, RolloutSettings};
use gammon_eval::{Evaluator, PositionClass};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A rolled-out cube decision, from [`Engine::cube_rollout`].
#[derive(Debug, Clone, PartialEq)]
pub struct CubeRolloutReport {
    /// The decision read from the rollout's equities, as `gammon cube`
    /// prints it (its `plies` are the rollout players').
    pub report: CubeReport,
    /// No double and double/take, normalised to the cube now (money), or
    /// their normalised equity (a match), with their standard errors.
    pub no_double: Estimate,
    /// See [`no_double`](Self::no_double).
    pub double_take: Estimate,
    /// Double/take minus no double, from the paired games.
    pub take_minus_no_double: Estimate,
    /// In a match: the same in match winning chances.
    pub mwc: Option<[Estimate; 3]>,
    /// The rollout's settings (cubeful: both lines play the cube).
    pub settings: RolloutSettings,
    /// Games played in each line.
    pub games: u64,
    /// Stopped before all its games (the games played, in order, only).
    pub interrupted: bool,
    /// Worker threads of the rayon pool.
    pub threads: usize,
    /// The time it took.
    pub elapsed: Duration,
}

impl<E: Evaluator> Engine<E> {
    /// Checks a cube-decision rollout before it starts (or is queued): its
    /// settings, and a cube decision the player on roll may make.
    ///
    /// # Errors
    /// As [`cube_rollout`](Self::cube_rollout), before any game.
    pub fn check_cube_rollout(
        &self,
        request: &Request,
        settings: &RolloutSettings,
    ) -> Result<CubeQuestion, EngineError> {
        settings.check()?;
        let question = CubeQuestion::new(request.position, request.context, self.met())?;
        match question.state().no_double_reason() {
            Some(reason) => Err(EngineError::CannotDouble(reason)),
            None => Ok(question),
        }
    }

    /// Rolls out the cube decision of the player on roll before his roll,
    /// in the request's context (money play at its cube, or a match at its
    /// score): the line where he does not double now and the line where he
    /// doubles and is taken, with the same dice, both sides playing the cube
    /// after (0-ply cube decisions), as gnubg and XG roll out cube
    /// decisions. Double/pass is exact. `progress` and `stop` as in
    /// [`rollout`](Self::rollout).
    ///
    /// # Errors
    /// [`EngineError::GameOver`], [`EngineError::Cube`] for a context the
    /// cube cannot be analysed in, [`EngineError::CannotDouble`] when the
    /// player on roll may not double, and the rollout's errors.
    pub fn cube_rollout(
        &self,
        request: &Request,
        settings: &RolloutSettings,
        progress: impl Fn(&RolloutProgress) + Sync,
        stop: &AtomicBool,
    ) -> Result<CubeRolloutReport, EngineError> {
        let question = self.check_cube_rollout(request, settings)?;
        let state = *question.state();
        let start = Instant::now();
        let position = request.position;
        let lines = rollout_cube_decision(self.evaluator(), &position, (&state, self.met()), settings, progress, stop)?;
        let (threads, elapsed) = (rayon::current_num_threads(), start.elapsed());
        Ok(cube_rollout_report(&question, &lines, settings, self.met(), (threads, elapsed)))
    }
}

/// A rolled-out cube decision read as `gammon cube` reads its search: the
/// two lines' values in the analysis (money: normalised to the cube; a
/// match: match winning chances), with their standard errors. `costs`: the
/// threads and the time it took.
pub(crate) fn cube_rollout_report(
    question: &CubeQuestion,
    lines: &CubeLines,
    settings: &RolloutSettings,
    met: &Met,
    (threads, elapsed): (usize, Duration),
) -> CubeRolloutReport {
    let state = *question.state();
    let position = *question.position();
    let (nd, dt) = (lines.no_double.headline(), lines.double_take.headline());
    let cube = f64::from(state.cube);
    // The values the cube analysis reads, and the estimates as printed.
    let (values, estimates, mwc) = match state.stakes {
        Stakes::Money { .. } => {
            let (nd, dt, diff) = (nd.linear(1.0 / cube, 0.0), dt.linear(1.0 / cube, 0.0), lines.take_minus_no_double);
            ([nd.mean, dt.mean / 2.0], [nd, dt, diff.linear(1.0 / cube, 0.0)], None)
        }
        Stakes::Match { .. } => {
            let (m_nd, m_dt) = (match_chances(&nd), match_chances(&dt));
            let m_diff = lines.take_minus_no_double.linear(0.5, 0.0);
            let units = MatchUnits::new(question.context(), &state, met);
            let emg = |e: &Estimate| units.map_or(*e, |u| u.emg_of_mwc(e));
            let emg_diff = units.map_or(m_diff, |u| u.emg_difference(&m_diff));
            ([m_nd.mean, m_dt.mean], [emg(&m_nd), emg(&m_dt), emg_diff], Some([m_nd, m_dt, m_diff]))
        }
    };
    let probabilities = lines.no_double.mean_probabilities().sanitized();
    let mut analysis = analysis_of_values(&position, &probabilities, &state, met, values);
    analysis.drop_inconsistent_take_point();
    let report = CubeReport {
        position,
        context: *question.context(),
        plies: settings.ply,
        class: PositionClass::of(&position),
        analysis,
        notes: question.notes().to_vec(),
        met: met.name().to_string(),
    };
    let [no_double, double_take, take_minus_no_double] = estimates;
    CubeRolloutReport {
        report,
        no_double,
        double_take,
        take_minus_no_double,
        mwc,
        settings: RolloutSettings { cubeful: true, candidates: None, ..*settings },
        games: lines.no_double.trials,
        interrupted: lines.no_double.interrupted,
        threads,
        elapsed,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::cube::{CubeAction, NoDouble};
    use crate::rollout::{rollout_position_with, TrialCube};
    use gammon_eval::NetEvaluator;
    use gammon_rules::{CubeOwner, GameContext, Position};

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    fn quick(trials: u64) -> RolloutSettings {
        RolloutSettings { trials, truncate: Some(8), ..RolloutSettings::default() }
    }

    fn roll_out(request: &Request, trials: u64) -> Result<CubeRolloutReport, EngineError> {
        engine().cube_rollout(request, &quick(trials), |_| {}, &AtomicBool::new(false))
    }

    /// A money race gnubg calls double/take (the oracle's first money cube
    /// position), and a priming game it calls double/pass.
    const RACE_DOUBLE_TAKE: &str = "2t0hBgDbdI4BAA";
    const PRIME_DOUBLE_PASS: &str = "ss7BBwC23QSDAA";

    fn position(id: &str) -> Position {
        Position::from_position_id(id).unwrap()
    }

    #[test]
    fn both_lines_play_the_same_games() {
        let r = roll_out(&Request::money(position(RACE_DOUBLE_TAKE)), 72).unwrap();
        let lines = rollout_cube_decision(
            engine().evaluator(),
            &r.report.position,
            (&r.report.analysis.state, engine().met()),
            &quick(72),
            |_| {},
            &AtomicBool::new(false),
        )
        .unwrap();
        // The same dice in both lines: the cube changes a few checker plays
        // (cubeful chequer play), so the cubeless games are nearly the same.
        let (nd, dt) = (lines.no_double.probabilities[0], lines.double_take.probabilities[0]);
        assert!((nd.mean - dt.mean).abs() < nd.standard_error / 4.0, "{nd:?} against {dt:?}");
        assert_eq!((r.games, r.report.analysis.double_pass), (72, 1.0));
        // The analysis reads the lines: no double, and double/take
        // normalised to the cube now (twice the value after the take).
        assert!((r.report.analysis.no_double - lines.no_double.headline().mean).abs() < 1e-12);
        assert!((r.report.analysis.double_take - lines.double_take.headline().mean).abs() < 1e-12);
        let paired = lines.double_take.headline().mean - lines.no_double.headline().mean;
        assert!((r.take_minus_no_double.mean - paired).abs() < 1e-12);
        // Paired games measure the difference better than either value.
        assert!(r.take_minus_no_double.standard_error < r.no_double.standard_error);
    }

    #[test]
    fn the_no_double_line_does_not_double_before_its_first_roll() {
        let e = engine();
        // gnubg: double/pass. A cubeful rollout of the position doubles at
        // once and O passes: +1 in every game. The no-double line plays on.
        let far = Request::money(position(PRIME_DOUBLE_PASS));
        let r = roll_out(&far, 72).unwrap();
        let cubeful = RolloutSettings { cubeful: true, ..quick(72) };
        let cube = TrialCube::Cube(r.report.analysis.state);
        let at_once = rollout_position_with(
            e.evaluator(),
            &far.position,
            (&cube, e.met()),
            &cubeful,
            |_| {},
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!((at_once.headline().mean, at_once.headline().standard_error), (1.0, 0.0));
        assert!(r.no_double.mean < 1.0 && r.no_double.standard_error > 0.0, "{:?}", r.no_double);
        assert!(r.double_take.mean > 1.0, "{:?}", r.double_take);
        assert_eq!(r.report.analysis.action, CubeAction::DoublePass);
    }

    #[test]
    fn a_bearoff_beyond_the_exact_cubeful_database_is_played_out() {
        // gnubg 1.07 (the oracle, 2-ply): no double +0.876, double/take
        // +1.273. The one-sided database knows its cubeless chances, not
        // its cubeful equities: stopped there, the cube model's estimate
        // (0.860, 1.195) came out with no standard error at all.
        let r = engine()
            .cube_rollout(
                &Request::money(position("1wIAAO4AAAAAAA")),
                &RolloutSettings { trials: 1296, ..RolloutSettings::default() },
                |_| {},
                &AtomicBool::new(false),
            )
            .unwrap();
        assert!(r.no_double.standard_error > 0.0 && r.double_take.standard_error > 0.0, "{r:?}");
        assert!((r.no_double.mean - 0.876).abs() < 0.012, "{:?}", r.no_double);
        assert!((r.double_take.mean - 1.273).abs() < 0.012, "{:?}", r.double_take);
        assert_eq!(r.report.analysis.action, CubeAction::DoublePass);
    }

    #[test]
    fn a_player_who_cannot_double_has_no_cube_decision_to_roll_out() {
        let p = position(RACE_DOUBLE_TAKE);
        let owned = GameContext { cube_value: 2, cube_owner: CubeOwner::Opponent, ..GameContext::money() };
        let err = roll_out(&Request { context: owned, ..Request::money(p) }, 36).unwrap_err();
        assert_eq!(err, EngineError::CannotDouble(NoDouble::OpponentOwnsCube));
        let crawford = GameContext { match_length: 5, score: (4, 2), crawford: true, ..GameContext::money() };
        let err = roll_out(&Request { context: crawford, ..Request::money(p) }, 36).unwrap_err();
        assert_eq!(err, EngineError::CannotDouble(NoDouble::Crawford));
        assert_eq!(roll_out(&Request::money(position("AAAAAAAA/38AAA")), 36).unwrap_err(), EngineError::GameOver);
    }

    #[test]
    fn in_a_match_the_pass_is_the_table_and_the_lines_are_chances() {
        let e = engine();
        let context = GameContext { match_length: 7, score: (2, 3), ..GameContext::money() };
        let r = roll_out(&Request { context, ..Request::money(position(RACE_DOUBLE_TAKE)) }, 72).unwrap();
        let [nd, dt, diff] = r.mwc.unwrap();
        let m = r.report.analysis.match_chances.unwrap();
        assert_eq!((m.no_double, m.double_take), (nd.mean, dt.mean));
        assert_eq!(m.double_pass, e.met().mwc_after((5, 4), false, 1, true));
        assert!((diff.mean - (dt.mean - nd.mean)).abs() < 1e-12);
        assert!((0.0..=1.0).contains(&nd.mean) && (0.0..=1.0).contains(&dt.mean));
    }
}
