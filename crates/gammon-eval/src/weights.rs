//! Weights files: a contact net, a crashed net and a race net with their
//! training metadata, stored through [`crate::file_format`] (kind
//! `GAMMONNN`), and [`NetKind`], which net answers which positions.

use crate::file_format::{self, FileError, FileKind};
use crate::inputs::{contact_side_units, ContactEncoding, Encoding, RaceEncoding, SparseInputs};
use crate::mlp::{Mlp, OUTPUTS};
use gammon_rules::{Position, PositionClass};
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version of the weights payload layout below: 2 added the crashed net.
/// Version 1 files (contact and race only) still load, their contact net
/// standing in for the crashed one.
pub const WEIGHTS_VERSION: u32 = 2;
const WEIGHTS_VERSION_1: u32 = 1;
/// The largest weights payload read, 64 MiB: no real weights file is larger
/// (a 250 x 1024 net is about 1 MB).
pub const MAX_WEIGHTS_BYTES: u64 = 64 << 20;
const MAX_HIDDEN: u32 = 4096;

/// How a net was trained, stored with it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingMeta {
    /// Self-play games trained on.
    pub games: u64,
    /// Seed of the run.
    pub seed: u64,
    /// TD(λ) λ.
    pub lambda: f32,
    /// Learning rate at the end of training.
    pub learning_rate: f32,
    /// When the file was written (UTC, RFC 3339).
    pub date: String,
    /// Free text: run name, notes.
    pub notes: String,
}

/// One net as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct NetRecord {
    encoding_version: u32,
    inputs: u32,
    hidden: u32,
    outputs: u32,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct WeightsPayload {
    contact: NetRecord,
    crashed: NetRecord,
    race: NetRecord,
    meta: TrainingMeta,
}

/// The version 1 payload: no crashed net.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct WeightsPayloadV1 {
    contact: NetRecord,
    race: NetRecord,
    meta: TrainingMeta,
}

impl From<WeightsPayloadV1> for WeightsPayload {
    fn from(v1: WeightsPayloadV1) -> Self {
        WeightsPayload { crashed: v1.contact.clone(), contact: v1.contact, race: v1.race, meta: v1.meta }
    }
}

/// The networks of a gammon evaluator: one for ordinary contact positions,
/// one for crashed ones, one for races, and how they were trained.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// Net for positions with contact ([`ContactEncoding`] inputs).
    pub contact: Mlp,
    /// Net for crashed contact positions ([`PositionClass::Crashed`],
    /// [`ContactEncoding`] inputs).
    pub crashed: Mlp,
    /// Net for races ([`RaceEncoding`] inputs).
    pub race: Mlp,
    /// Training metadata.
    pub meta: TrainingMeta,
}

/// One of the three nets, named by the positions it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NetKind {
    /// Ordinary contact positions.
    Contact,
    /// Crashed contact positions.
    Crashed,
    /// Races not in the bearoff database.
    Race,
}

impl NetKind {
    /// The three, in a fixed order ([`NetKind::index`]).
    pub const ALL: [NetKind; 3] = [NetKind::Contact, NetKind::Crashed, NetKind::Race];

    /// The net that answers positions of `class`; `None` for those answered
    /// exactly (finished games, bearoffs).
    pub const fn of(class: PositionClass) -> Option<NetKind> {
        match class {
            PositionClass::Contact => Some(NetKind::Contact),
            PositionClass::Crashed => Some(NetKind::Crashed),
            PositionClass::Race => Some(NetKind::Race),
            PositionClass::Finished | PositionClass::Bearoff => None,
        }
    }

    /// The net for `pos`, if a net answers it.
    pub const fn of_position(pos: &Position) -> Option<NetKind> {
        Self::of(PositionClass::of(pos))
    }

    /// Its place in [`NetKind::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `contact`, `crashed` or `race`.
    pub const fn name(self) -> &'static str {
        match self {
            NetKind::Contact => "contact",
            NetKind::Crashed => "crashed",
            NetKind::Race => "race",
        }
    }

    /// The number of inputs of its encoding.
    pub const fn inputs(self) -> usize {
        match self {
            NetKind::Contact | NetKind::Crashed => ContactEncoding::LEN,
            NetKind::Race => RaceEncoding::LEN,
        }
    }

    /// Encodes `pos` with this net's encoding.
    pub fn encode(self, pos: &Position, out: &mut SparseInputs) {
        match self {
            NetKind::Contact | NetKind::Crashed => ContactEncoding::encode(pos, out),
            NetKind::Race => RaceEncoding::encode(pos, out),
        }
    }
}

/// The payload of a file image of either version.
fn decode_payload(bytes: &[u8]) -> Result<WeightsPayload, FileError> {
    match file_format::from_bytes(FileKind::Weights, WEIGHTS_VERSION, MAX_WEIGHTS_BYTES, bytes) {
        Err(FileError::Version { found: WEIGHTS_VERSION_1, .. }) => {
            file_format::from_bytes::<WeightsPayloadV1>(FileKind::Weights, WEIGHTS_VERSION_1, MAX_WEIGHTS_BYTES, bytes)
                .map(WeightsPayload::from)
        }
        other => other,
    }
}

fn record<E: Encoding>(net: &Mlp) -> NetRecord {
    NetRecord {
        encoding_version: E::VERSION,
        inputs: net.inputs() as u32,
        hidden: net.hidden() as u32,
        outputs: OUTPUTS as u32,
        w1: net.w1.iter().copied().collect(),
        b1: net.b1.to_vec(),
        w2: net.w2.iter().copied().collect(),
        b2: net.b2.to_vec(),
    }
}

fn net_from<E: Encoding>(name: &str, r: NetRecord) -> Result<Mlp, FileError> {
    let bad = |what: String| FileError::Invalid(format!("{name} net: {what}"));
    if r.encoding_version != E::VERSION {
        return Err(bad(format!(
            "trained on input encoding version {}, this program has version {}",
            r.encoding_version,
            E::VERSION
        )));
    }
    if r.inputs as usize != E::LEN {
        return Err(bad(format!("has {} inputs, the encoding has {}", r.inputs, E::LEN)));
    }
    if r.outputs as usize != OUTPUTS {
        return Err(bad(format!("has {} outputs, expected {OUTPUTS}", r.outputs)));
    }
    if r.hidden == 0 || r.hidden > MAX_HIDDEN {
        return Err(bad(format!("has {} hidden units (1 to {MAX_HIDDEN} allowed)", r.hidden)));
    }
    let (i, h) = (r.inputs as usize, r.hidden as usize);
    for (what, len, want) in [
        ("first-layer weights", r.w1.len(), i * h),
        ("hidden biases", r.b1.len(), h),
        ("output weights", r.w2.len(), OUTPUTS * h),
        ("output biases", r.b2.len(), OUTPUTS),
    ] {
        if len != want {
            return Err(bad(format!("{what}: {len} values, the shape needs {want}")));
        }
    }
    let net = Mlp {
        w1: Array2::from_shape_vec((i, h), r.w1).map_err(|e| bad(e.to_string()))?,
        b1: Array1::from(r.b1),
        w2: Array2::from_shape_vec((OUTPUTS, h), r.w2).map_err(|e| bad(e.to_string()))?,
        b2: Array1::from(r.b2),
    };
    if !net.is_finite() {
        return Err(bad("contains a weight that is not a finite number".into()));
    }
    Ok(net)
}

/// An older contact net as a net of this program's contact encoding: each
/// version appended features to each side's block (version 1: 120 units a
/// side, 2: 130, 3: 136), so the old first-layer rows move to their units'
/// places in the new blocks and the new units get zero rows: the net
/// evaluates every position exactly as before (a zero row adds nothing to
/// any hidden unit's sum). Records of another version or shape are returned
/// unchanged, for `net_from` to say what is wrong.
fn upgrade_contact(r: NetRecord) -> NetRecord {
    let new_side = ContactEncoding::LEN / 2;
    let Some(old_side) = contact_side_units(r.encoding_version) else { return r };
    if r.encoding_version >= ContactEncoding::VERSION
        || r.inputs as usize != 2 * old_side
        || r.w1.len() != r.inputs as usize * r.hidden as usize
    {
        return r;
    }
    let h = r.hidden as usize;
    let mut w1 = vec![0.0; ContactEncoding::LEN * h];
    for (row, values) in r.w1.chunks_exact(h).enumerate() {
        let (side, unit) = (row / old_side, row % old_side);
        let at = (side * new_side + unit) * h;
        w1[at..at + h].copy_from_slice(values);
    }
    NetRecord { encoding_version: ContactEncoding::VERSION, inputs: ContactEncoding::LEN as u32, w1, ..r }
}

/// The contact encoding version a net is written with: version 2 when its
/// rows for version 3's units are all zero (a version 2 net as loaded, or a
/// version 1 net, which loaded as version 2 before), so that such a net's
/// file image, and with it [`NetWeights::fingerprint`], stays what it was
/// before version 3 (rollout shards and label files made by an older build
/// still merge and resume); else this program's version.
const CONTACT_WRITTEN_DOWN_TO: u32 = 2;

/// `r` (of this program's contact encoding) as a record of version
/// [`CONTACT_WRITTEN_DOWN_TO`] when the units that version lacks have zero
/// rows: [`upgrade_contact`] gives it back exactly.
fn downgrade_contact(r: NetRecord) -> NetRecord {
    let (new_side, h) = (ContactEncoding::LEN / 2, r.hidden as usize);
    let Some(old_side) = contact_side_units(CONTACT_WRITTEN_DOWN_TO) else { return r };
    if r.encoding_version != ContactEncoding::VERSION || r.w1.len() != ContactEncoding::LEN * h || h == 0 {
        return r;
    }
    let rows = || r.w1.chunks_exact(h).enumerate().map(|(row, values)| (row % new_side, values));
    if rows().any(|(unit, values)| unit >= old_side && values.iter().any(|w| w.to_bits() != 0)) {
        return r;
    }
    let w1 = rows().filter(|&(unit, _)| unit < old_side).flat_map(|(_, values)| values.iter().copied()).collect();
    NetRecord { encoding_version: CONTACT_WRITTEN_DOWN_TO, inputs: 2 * old_side as u32, w1, ..r }
}

impl NetWeights {
    /// Fresh random nets of the given hidden sizes (reproducible from
    /// `seed`); the crashed net starts as a copy of the contact net, as a
    /// crashed position is a contact position first.
    pub fn random(contact_hidden: usize, race_hidden: usize, seed: u64) -> Self {
        let contact = Mlp::random(ContactEncoding::LEN, contact_hidden, 0.1, seed);
        NetWeights {
            crashed: contact.clone(),
            contact,
            race: Mlp::random(RaceEncoding::LEN, race_hidden, 0.1, seed ^ 0x9E37_79B9_7F4A_7C15),
            meta: TrainingMeta { seed, ..TrainingMeta::default() },
        }
    }

    /// The net of `kind`.
    pub fn net(&self, kind: NetKind) -> &Mlp {
        match kind {
            NetKind::Contact => &self.contact,
            NetKind::Crashed => &self.crashed,
            NetKind::Race => &self.race,
        }
    }

    /// The net of `kind`, to change.
    pub fn net_mut(&mut self, kind: NetKind) -> &mut Mlp {
        match kind {
            NetKind::Contact => &mut self.contact,
            NetKind::Crashed => &mut self.crashed,
            NetKind::Race => &mut self.race,
        }
    }

    /// Whether every weight of every net is a finite number.
    pub fn is_finite(&self) -> bool {
        NetKind::ALL.iter().all(|&k| self.net(k).is_finite())
    }

    /// The most hidden units of any of the nets.
    pub fn max_hidden(&self) -> usize {
        NetKind::ALL.iter().map(|&k| self.net(k).hidden()).max().unwrap_or(0)
    }

    /// The file image. A contact or crashed net whose rows for the units
    /// contact encoding version 3 added are all zero is written as a version
    /// 2 net, as it was before version 3 (and loads back the same).
    ///
    /// # Errors
    /// Encoding failed.
    pub fn to_bytes(&self) -> Result<Vec<u8>, FileError> {
        file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &self.payload())
    }

    /// A fingerprint of the weights: the checksum of their file image.
    /// Results saved for merging (rollout shards) carry it, so that shards
    /// of different nets are told apart.
    pub fn fingerprint(&self) -> u64 {
        self.to_bytes().map_or(0, |b| file_format::fnv1a64(&b))
    }

    fn payload(&self) -> WeightsPayload {
        WeightsPayload {
            contact: downgrade_contact(record::<ContactEncoding>(&self.contact)),
            crashed: downgrade_contact(record::<ContactEncoding>(&self.crashed)),
            race: record::<RaceEncoding>(&self.race),
            meta: self.meta.clone(),
        }
    }

    /// Reads a file image, checking the header, the shapes and the values.
    /// Contact nets of an older input encoding version (1 or 2) load as
    /// nets of this program's version that give the same evaluations;
    /// files of payload version 1 (no crashed net) load with a copy of
    /// their contact net as the crashed net, so they evaluate every
    /// position as before.
    ///
    /// # Errors
    /// Truncated, corrupt, of another version, absurdly large, or of a shape
    /// that does not match this program's encodings.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, FileError> {
        Self::from_payload(decode_payload(bytes)?)
    }

    fn from_payload(p: WeightsPayload) -> Result<Self, FileError> {
        Ok(NetWeights {
            contact: net_from::<ContactEncoding>("contact", upgrade_contact(p.contact))?,
            crashed: net_from::<ContactEncoding>("crashed", upgrade_contact(p.crashed))?,
            race: net_from::<RaceEncoding>("race", p.race)?,
            meta: p.meta,
        })
    }

    /// Reads a weights file: its header, then no more than the payload it
    /// announces, of at most [`MAX_WEIGHTS_BYTES`] (see
    /// [`file_format::read_file`]). Errors name the file once.
    ///
    /// # Errors
    /// As [`from_bytes`](Self::from_bytes), or the file cannot be read.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let payload = match file_format::read_file(path, FileKind::Weights, WEIGHTS_VERSION, MAX_WEIGHTS_BYTES) {
            Err(FileError::InFile { problem, .. })
                if matches!(*problem, FileError::Version { found: WEIGHTS_VERSION_1, .. }) =>
            {
                let v1: WeightsPayloadV1 =
                    file_format::read_file(path, FileKind::Weights, WEIGHTS_VERSION_1, MAX_WEIGHTS_BYTES)?;
                WeightsPayload::from(v1)
            }
            other => other?,
        };
        Self::from_payload(payload).map_err(|e| FileError::in_file(path, e))
    }

    /// Writes a weights file atomically.
    ///
    /// # Errors
    /// Encoding or writing failed.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        file_format::write_file_atomic(path, FileKind::Weights, WEIGHTS_VERSION, &self.payload())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_rules::Position;

    #[test]
    fn round_trip_and_damage() {
        let w = NetWeights::random(8, 4, 7);
        let bytes = w.to_bytes().unwrap();
        assert_eq!(NetWeights::from_bytes(&bytes).unwrap(), w);
        for cut in [0, 5, 27, 28, bytes.len() / 2, bytes.len() - 1] {
            assert!(NetWeights::from_bytes(&bytes[..cut]).is_err());
        }
        let mut flipped = bytes.clone();
        let n = flipped.len();
        flipped[n - 3] ^= 1;
        assert!(matches!(NetWeights::from_bytes(&flipped), Err(FileError::Checksum)));
    }

    /// A record made into a net as it is stored: no check, no upgrade.
    fn stored_net(r: &NetRecord) -> Mlp {
        let (i, h) = (r.inputs as usize, r.hidden as usize);
        Mlp {
            w1: Array2::from_shape_vec((i, h), r.w1.clone()).unwrap(),
            b1: Array1::from(r.b1.clone()),
            w2: Array2::from_shape_vec((OUTPUTS, h), r.w2.clone()).unwrap(),
            b2: Array1::from(r.b2.clone()),
        }
    }

    /// The inputs of contact encoding `version` among `s` (this program's):
    /// each side's units beyond that version's dropped, the rest closed up.
    fn older_inputs(s: &SparseInputs, version: u32) -> SparseInputs {
        let (side, old_side) = (ContactEncoding::LEN / 2, contact_side_units(version).unwrap());
        let mut old = SparseInputs::with_capacity(2 * old_side);
        for (&i, &x) in s.index.iter().zip(&s.value) {
            let (sd, unit) = (usize::from(i) / side, usize::from(i) % side);
            if unit < old_side {
                old.index.push((sd * old_side + unit) as u16);
                old.value.push(x);
            }
        }
        old
    }

    /// Positions along random games (openings to bearoffs against contact),
    /// both sides' views, and a roll's results from a middle game.
    fn many_positions() -> Vec<Position> {
        let mut list = gammon_rules::MoveList::new();
        list.generate(&Position::from_position_id("sGfwATDgc/ABMA").unwrap(), gammon_rules::Dice::new(6, 4).unwrap());
        let mut positions = crate::inputs::tests::random_game_positions(60);
        positions.extend_from_slice(list.positions());
        positions
    }

    #[test]
    fn older_contact_nets_evaluate_as_before() {
        let w = NetWeights::random(8, 4, 7);
        for version in [1, 2] {
            let side = contact_side_units(version).unwrap();
            let (contact, crashed) = (Mlp::random(2 * side, 8, 0.1, 3), Mlp::random(2 * side, 16, 0.1, 4));
            let old = |net: &Mlp| NetRecord {
                encoding_version: version,
                inputs: 2 * side as u32,
                ..record::<ContactEncoding>(net)
            };
            let mut p = w.payload();
            (p.contact, p.crashed) = (old(&contact), old(&crashed));
            let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
            let upgraded = NetWeights::from_bytes(&bytes).unwrap();
            let mut hidden = vec![0.0; 16];
            let mut s = SparseInputs::with_capacity(ContactEncoding::LEN);
            let mut new_units = 0;
            for pos in many_positions() {
                ContactEncoding::encode(&pos, &mut s);
                let x = older_inputs(&s, version);
                new_units += s.index.len() - x.index.len();
                for (new, old) in [(&upgraded.contact, &contact), (&upgraded.crashed, &crashed)] {
                    let (got, want) = (new.forward(&s, &mut hidden), old.forward(&x, &mut hidden));
                    assert_eq!(
                        got.map(f32::to_bits),
                        want.map(f32::to_bits),
                        "version {version}: {}",
                        pos.to_position_id()
                    );
                }
            }
            assert!(new_units > 10_000, "version {version}: the new units are there ({new_units})");
            // Written again, each is a version 2 net (a version 1 net was
            // written so before version 3), and reads back the same.
            let again = upgraded.payload();
            assert_eq!((again.contact.encoding_version, again.contact.inputs), (2, 260));
            assert_eq!((again.crashed.encoding_version, again.crashed.inputs), (2, 260));
            assert_eq!(NetWeights::from_bytes(&upgraded.to_bytes().unwrap()).unwrap(), upgraded);
        }
    }

    /// A net that has learnt weights for version 3's units is written as a
    /// version 3 net; one whose only non-zero new weight is a single value
    /// too.
    #[test]
    fn nets_that_use_the_new_units_are_written_as_version_3() {
        let mut w = NetWeights::random(8, 4, 7);
        assert_eq!(w.payload().contact.encoding_version, ContactEncoding::VERSION);
        let v2 = contact_side_units(2).unwrap();
        w.contact.w1.row_mut(v2).fill(0.0);
        let mut zero_but_one = w.contact.clone();
        for side in 0..2 {
            for unit in v2..ContactEncoding::LEN / 2 {
                zero_but_one.w1.row_mut(side * ContactEncoding::LEN / 2 + unit).fill(0.0);
            }
        }
        w.crashed = zero_but_one.clone();
        w.crashed.w1[(ContactEncoding::LEN - 1, 3)] = -0.0;
        let p = w.payload();
        assert_eq!((p.contact.encoding_version, p.crashed.encoding_version), (3, 3), "a -0.0 is kept");
        w.crashed = zero_but_one;
        assert_eq!(w.payload().crashed.encoding_version, 2);
        assert_eq!(NetWeights::from_bytes(&w.to_bytes().unwrap()).unwrap(), w);
    }

    /// Nets of contact encoding version 2 (v3-fit, shipped until
    /// 2026-12-06, kept in `training/runs/v3-fit`) load as version 3 nets
    /// that give every position the same bits, in float and quantised, and
    /// their file image is the file's own: its fingerprint is unchanged.
    #[test]
    fn version_2_nets_evaluate_as_before() {
        use crate::quant::{QuantNet, QuantScratch};
        let bytes: &[u8] = include_bytes!("../../../training/runs/v3-fit/weights.gnn");
        let stored = decode_payload(bytes).unwrap();
        assert_eq!(stored.contact.encoding_version, 2);
        let w = NetWeights::from_bytes(bytes).unwrap();
        assert_eq!(w.to_bytes().unwrap(), bytes, "the file image is unchanged");
        let mut hidden = vec![0.0; w.max_hidden()];
        let mut s = SparseInputs::with_capacity(ContactEncoding::LEN);
        for (new, record) in [(&w.contact, &stored.contact), (&w.crashed, &stored.crashed)] {
            let old = stored_net(record);
            let (q_new, q_old) = (QuantNet::new(new).unwrap(), QuantNet::new(&old).unwrap());
            let (mut sn, mut so) = (QuantScratch::new(), QuantScratch::new());
            for pos in many_positions() {
                ContactEncoding::encode(&pos, &mut s);
                let x = older_inputs(&s, 2);
                let id = pos.to_position_id();
                let (got, want) = (new.forward(&s, &mut hidden), old.forward(&x, &mut hidden));
                assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "float {id}");
                let got = q_new.forward(&s, &mut sn, &mut hidden).map(|o| o.map(f32::to_bits));
                let want = q_old.forward(&x, &mut so, &mut hidden).map(|o| o.map(f32::to_bits));
                assert!(want.is_some(), "quantised {id}");
                assert_eq!(got, want, "quantised {id}");
            }
        }
    }

    #[test]
    fn version_1_files_load_with_the_contact_net_as_crashed_net() {
        let mut w = NetWeights::random(8, 4, 7);
        w.crashed = Mlp::random(ContactEncoding::LEN, 8, 0.1, 99);
        let p = w.payload();
        let v1 = WeightsPayloadV1 { contact: p.contact, race: p.race, meta: p.meta };
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION_1, &v1).unwrap();
        let loaded = NetWeights::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.crashed, w.contact);
        assert_eq!((&loaded.contact, &loaded.race), (&w.contact, &w.race));
        // The same through a file, and a version 2 file keeps its crashed net.
        let dir = std::env::temp_dir().join(format!("gammon-weights-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("v1.gnn");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(NetWeights::load(&path).unwrap(), loaded);
        w.save(&path).unwrap();
        assert_eq!(NetWeights::load(&path).unwrap(), w);
        // Another version is still refused, naming both.
        let v3 = file_format::to_bytes(FileKind::Weights, 3, &w.payload()).unwrap();
        std::fs::write(&path, &v3).unwrap();
        let err = NetWeights::load(&path).unwrap_err().to_string();
        assert!(err.contains("format version 3 is not supported"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_class_has_its_net() {
        use gammon_rules::PositionClass as C;
        let kinds: Vec<_> =
            [C::Contact, C::Crashed, C::Race, C::Bearoff, C::Finished].into_iter().map(NetKind::of).collect();
        assert_eq!(kinds, [Some(NetKind::Contact), Some(NetKind::Crashed), Some(NetKind::Race), None, None]);
        let w = NetWeights::random(8, 4, 7);
        for k in NetKind::ALL {
            assert_eq!(w.net(k).inputs(), k.inputs(), "{}", k.name());
            assert_eq!(NetKind::ALL[k.index()], k);
        }
    }

    #[test]
    fn wrong_shapes_are_refused() {
        let w = NetWeights::random(8, 4, 7);
        let mut p = w.payload();
        p.contact.w1.pop();
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
        let err = NetWeights::from_bytes(&bytes).unwrap_err().to_string();
        assert!(err.contains("first-layer weights"), "{err}");

        let mut p = w.payload();
        p.race.inputs += 1;
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
        assert!(NetWeights::from_bytes(&bytes).unwrap_err().to_string().contains("inputs"));

        let mut p = w.payload();
        p.contact.encoding_version = 99;
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
        assert!(NetWeights::from_bytes(&bytes).unwrap_err().to_string().contains("encoding version"));

        let mut p = w.payload();
        p.race.b2[0] = f32::NAN;
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
        assert!(NetWeights::from_bytes(&bytes).unwrap_err().to_string().contains("finite"));

        let mut p = w.payload();
        p.contact.hidden = 1 << 30;
        let bytes = file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap();
        assert!(NetWeights::from_bytes(&bytes).unwrap_err().to_string().contains("hidden units"));
    }
    #[test]
    fn load_names_the_file_once_for_any_problem() {
        let dir = std::env::temp_dir().join(format!("gammon-weights-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.gnn");
        let mut p = NetWeights::random(8, 4, 7).payload();
        p.race.b2[0] = f32::NAN;
        std::fs::write(&path, file_format::to_bytes(FileKind::Weights, WEIGHTS_VERSION, &p).unwrap()).unwrap();
        let shown = |e: FileError| e.to_string();
        let bad_value = shown(NetWeights::load(&path).unwrap_err());
        assert_eq!(bad_value, format!("{}: race net: contains a weight that is not a finite number", path.display()));
        let missing = dir.join("missing.gnn");
        let err = NetWeights::load(&missing).unwrap_err();
        assert_eq!(err.to_string(), format!("cannot read {}", missing.display()), "the OS error is the source only");
        assert!(std::error::Error::source(&err).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
