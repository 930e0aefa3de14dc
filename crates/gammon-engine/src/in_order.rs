//! Long jobs that keep their work when stopped: the items of a list worked
//! on in parallel, taken in list order, so what is finished when a stop
//! comes is always a prefix of the list.
//!
//! rayon's `par_iter` splits a list into halves, so a stop leaves finished
//! items scattered through it and a job can keep only the few before the
//! first gap. Here each worker takes the next item; once the stop flag is
//! set (or an item fails) none is taken and the ones in hand are finished,
//! so every item before the last one taken is done.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// `work` applied to each of `items` on the current rayon pool, workers
/// taking the items in order. Returns the results of the finished prefix
/// and the first error in list order (the results before it are kept).
/// With `stop` never set and no error the results are all of them, in
/// order, whatever the number of threads.
pub fn map_in_order<T: Sync, R: Send + Sync, E: Send + Sync>(
    items: &[T],
    stop: &AtomicBool,
    work: impl Fn(usize, &T) -> Result<R, E> + Sync,
) -> (Vec<R>, Option<E>) {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let slots: Vec<OnceLock<Result<R, E>>> = items.iter().map(|_| OnceLock::new()).collect();
    rayon::scope(|s| {
        for _ in 0..rayon::current_num_threads().min(items.len()) {
            s.spawn(|_| loop {
                if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(i, item);
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                // Each index is taken once, so the slot is empty.
                let _ = slots[i].set(result);
            });
        }
    });
    let mut done = Vec::with_capacity(items.len());
    for slot in slots {
        match slot.into_inner() {
            Some(Ok(r)) => done.push(r),
            Some(Err(e)) => return (done, Some(e)),
            None => break,
        }
    }
    (done, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn every_item_in_order_at_any_thread_count() {
        let items: Vec<u32> = (0..1000).collect();
        for threads in [1, 2, 5] {
            let (done, error) = pool(threads)
                .install(|| map_in_order(&items, &AtomicBool::new(false), |i, &x| Ok::<_, ()>((i, x * 2))));
            assert!(error.is_none());
            assert_eq!(done, items.iter().enumerate().map(|(i, &x)| (i, x * 2)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_stop_keeps_a_prefix_with_every_item_taken() {
        let items: Vec<u32> = (0..10_000).collect();
        let stop = AtomicBool::new(false);
        let started = AtomicUsize::new(0);
        let (done, error) = pool(4).install(|| {
            map_in_order(&items, &stop, |_, &x| {
                if started.fetch_add(1, Ordering::SeqCst) == 100 {
                    stop.store(true, Ordering::SeqCst);
                }
                Ok::<_, ()>(x)
            })
        });
        assert!(error.is_none());
        // Every item started was finished and kept: no gaps.
        assert_eq!(done.len(), started.load(Ordering::SeqCst));
        assert!(done.len() > 100 && done.len() < items.len(), "{}", done.len());
        assert_eq!(done, items[..done.len()]);
    }

    #[test]
    fn the_first_error_in_list_order_and_the_results_before_it() {
        let items: Vec<u32> = (0..500).collect();
        let (done, error) = pool(3).install(|| {
            map_in_order(&items, &AtomicBool::new(false), |_, &x| if x == 40 || x == 41 { Err(x) } else { Ok(x) })
        });
        assert_eq!(error, Some(40));
        assert_eq!(done, items[..40]);
    }
}
