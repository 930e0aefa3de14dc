//! The memory a hostile match file costs to refuse (issue 26): a few times
//! its size, not a tree of allocations per node or a list per word. A
//! binary of its own, so the process's peak memory (Linux `VmHWM`, reset
//! through `/proc/self/clear_refs`) is this test's.

/// `VmRSS` or `VmHWM` (peak) of this process in bytes, if `/proc` has it.
fn memory(name: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// The peak memory `f` adds, as a multiple of `size`; `None` where the
/// peak cannot be measured.
fn cost(size: usize, f: impl FnOnce()) -> Option<f64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    let before = memory("VmRSS:")?;
    f();
    let peak = memory("VmHWM:")?;
    Some(peak.saturating_sub(before) as f64 / size as f64)
}

/// `head`, `unit` repeated to about `size` bytes, then `tail`.
fn text(head: &str, unit: &str, size: usize, tail: &str) -> String {
    let mut text = String::with_capacity(head.len() + size + unit.len() + tail.len());
    text.push_str(head);
    while text.len() < size {
        text.push_str(unit);
    }
    text.push_str(tail);
    text
}

/// A reader that refuses the text.
type Refuses = fn(&str) -> bool;

#[test]
fn refusing_a_large_file_costs_a_few_times_its_size() {
    // Move nodes after a first move that is illegal: each node of 11 bytes
    // keeps one written action (48 bytes) until the replay (45x before the
    // tree was streamed).
    let sgf = text("(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]\n;B[31qtsa]\n", ";W[42hdfd]\n", 12 << 20, ")");
    // One illegal move line of 3 million steps (18x before).
    let mat = text(" 1 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: ", "8/5 ", 12 << 20, "\n");
    let checks: [(&str, &String, Refuses); 2] = [
        ("SGF", &sgf, |t| gammon_rules::parse_sgf(t).is_err()),
        (".mat", &mat, |t| gammon_rules::parse_mat(t).is_err()),
    ];
    for (what, text, refused) in checks {
        let Some(x) = cost(text.len(), || assert!(refused(text), "{what} is refused")) else {
            eprintln!("skipped: no /proc/self to measure the memory with");
            return;
        };
        eprintln!("{what}: refusing {} bytes took {x:.1} times that", text.len());
        assert!(x < 6.0, "{what}: refusing {} bytes took {x:.1} times that", text.len());
    }
}
