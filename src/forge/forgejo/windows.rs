//! An issue's comments, read in windows of time when they do not fit in
//! one reply. Forgejo lists a thread's comments unpaged, so a crowd of long
//! comments can make the one reply longer than a run reads
//! ([`crate::bounds::REPLY_BYTES`]). The list takes `since` and `before`,
//! which select comments by when each was last updated, both ends included,
//! to the second: a window too long is halved until each half fits, so a
//! thread of any length is read in parts that each fit, unless one second's
//! comments alone do not.
//!
//! The windows are read oldest first and the last is open-ended, so a
//! comment edited while the windows are read moves to a later window, not
//! an earlier one already read: it is read once more (the later reading
//! wins), never missed.

use std::collections::BTreeMap;

use super::dto::Comment;
use crate::forge::ForgeError;
use crate::time::Timestamp;

/// Reads an issue's comments: in one reply when it fits, else in windows.
/// `read(since, before)` reads the comments last updated within both
/// bounds (each given, inclusive); `now` is the run's moment, the end of
/// the last closed window. Oldest window first; each comment once.
pub(super) fn read_all(
    read: &dyn Fn(Option<Timestamp>, Option<Timestamp>) -> Result<Vec<Comment>, ForgeError>,
    now: Timestamp,
) -> Result<Vec<Comment>, ForgeError> {
    match read(None, None) {
        Err(e @ ForgeError::TooLarge { .. }) => {
            let mut found = BTreeMap::new();
            // Forgejo reads `since` only when it is after the epoch. The
            // whole thread did not fit: its halves are read at once.
            halves(read, Timestamp::from_unix(1), None, now, &mut found).unwrap_or(Err(e))?;
            Ok(found.into_values().collect())
        }
        read => read,
    }
}

/// Reads the two halves of the window from `since` to `before` (to `now`
/// and open-ended, without it), oldest first; `None` when the window is a
/// second and cannot be halved.
fn halves(
    read: &dyn Fn(Option<Timestamp>, Option<Timestamp>) -> Result<Vec<Comment>, ForgeError>,
    since: Timestamp,
    before: Option<Timestamp>,
    now: Timestamp,
    found: &mut BTreeMap<u64, Comment>,
) -> Option<Result<(), ForgeError>> {
    let end = before.unwrap_or(now).unix();
    if end <= since.unix() {
        return None;
    }
    let middle = Timestamp::from_unix(since.unix() + (end - since.unix()) / 2);
    let later = Timestamp::from_unix(middle.unix() + 1);
    Some(
        within(read, since, Some(middle), now, found)
            .and_then(|()| within(read, later, before, now, found)),
    )
}

/// The comments updated from `since` to `before` (open-ended without it),
/// into `found` by id, a window halved while its reply is too long.
fn within(
    read: &dyn Fn(Option<Timestamp>, Option<Timestamp>) -> Result<Vec<Comment>, ForgeError>,
    since: Timestamp,
    before: Option<Timestamp>,
    now: Timestamp,
    found: &mut BTreeMap<u64, Comment>,
) -> Result<(), ForgeError> {
    match read(Some(since), before) {
        Ok(comments) => {
            found.extend(comments.into_iter().map(|c| (c.id, c)));
            Ok(())
        }
        Err(e @ ForgeError::TooLarge { .. }) => {
            halves(read, since, before, now, found).unwrap_or(Err(e))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// A thread of comments, each `(id, updated)`, served as Forgejo
    /// would, refusing any reply of more than `fits` comments; the
    /// windows asked for are noted. `edit` moves a comment's update time
    /// once that many replies were given: `(replies, id, updated)`.
    struct Thread {
        comments: RefCell<Vec<(u64, i64)>>,
        fits: usize,
        asked: RefCell<Vec<(Option<i64>, Option<i64>)>>,
        edit: Option<(usize, u64, i64)>,
    }

    impl Thread {
        fn new(comments: Vec<(u64, i64)>, fits: usize) -> Self {
            Thread {
                comments: RefCell::new(comments),
                fits,
                asked: RefCell::default(),
                edit: None,
            }
        }

        fn read(
            &self,
            since: Option<Timestamp>,
            before: Option<Timestamp>,
        ) -> Result<Vec<Comment>, ForgeError> {
            let (since, before) = (since.map(Timestamp::unix), before.map(Timestamp::unix));
            self.asked.borrow_mut().push((since, before));
            if let Some((after, id, at)) = self.edit {
                if self.asked.borrow().len() == after + 1 {
                    for c in self.comments.borrow_mut().iter_mut().filter(|c| c.0 == id) {
                        c.1 = at;
                    }
                }
            }
            let chosen: Vec<Comment> = self
                .comments
                .borrow()
                .iter()
                .filter(|(_, at)| since.is_none_or(|s| *at >= s))
                .filter(|(_, at)| before.is_none_or(|b| *at <= b))
                .map(|(id, at)| comment(*id, *at))
                .collect();
            if chosen.len() > self.fits {
                return Err(ForgeError::TooLarge {
                    request: "GET comments".into(),
                    limit: 1,
                });
            }
            Ok(chosen)
        }
    }

    fn comment(id: u64, at: i64) -> Comment {
        let at = Timestamp::from_unix(at).to_string();
        Comment {
            id,
            user: None,
            created_at: at.clone(),
            updated_at: at,
            body: Some(format!("comment {id}")),
            html_url: None,
        }
    }

    fn ids(comments: &[Comment]) -> Vec<u64> {
        comments.iter().map(|c| c.id).collect()
    }

    #[test]
    fn a_thread_that_fits_is_read_in_one_reply() {
        let thread = Thread::new(vec![(1, 100), (2, 200)], 2);
        let got = read_all(&|s, b| thread.read(s, b), Timestamp::from_unix(1_000)).unwrap();
        assert_eq!(ids(&got), [1, 2]);
        assert_eq!(thread.asked.borrow().as_slice(), [(None, None)]);
    }

    #[test]
    fn a_thread_too_long_for_a_reply_is_read_whole_in_windows() {
        // 40 comments, 3 to a reply, some sharing a second.
        let comments = (1..=40)
            .map(|id| (id, 1_000 + (id as i64 / 2) * 37))
            .collect();
        let thread = Thread::new(comments, 3);
        let got = read_all(&|s, b| thread.read(s, b), Timestamp::from_unix(5_000)).unwrap();
        assert_eq!(ids(&got), (1..=40).collect::<Vec<_>>());
        let asked = thread.asked.borrow();
        // The last window is open-ended, so nothing edited later is lost.
        assert_eq!(asked.last().unwrap().1, None, "{asked:?}");
    }

    #[test]
    fn a_comment_edited_while_the_windows_are_read_is_read_once() {
        // Comment 1 is edited (to the run's moment) once its window was read.
        let comments = (1..=12).map(|id| (id, 1_000 + id as i64 * 100)).collect();
        let mut thread = Thread::new(comments, 2);
        thread.edit = Some((4, 1, 4_900));
        let got = read_all(&|s, b| thread.read(s, b), Timestamp::from_unix(5_000)).unwrap();
        assert_eq!(ids(&got), (1..=12).collect::<Vec<_>>());
        assert_eq!(
            got[0].updated_at, "1970-01-01T01:21:40Z",
            "the later reading wins"
        );
    }

    #[test]
    fn a_second_whose_comments_alone_do_not_fit_is_reported() {
        let thread = Thread::new((1..=5).map(|id| (id, 3_000)).collect(), 2);
        let got = read_all(&|s, b| thread.read(s, b), Timestamp::from_unix(4_000));
        assert!(matches!(got, Err(ForgeError::TooLarge { .. })), "{got:?}");
        assert!(thread.asked.borrow().len() < 80, "halving stops");
    }
}
