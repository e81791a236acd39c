//! How a forge's comments and reviews become the comments the tally reads,
//! the same for GitHub and Forgejo: each adapter only says, in its own
//! words, who wrote what when and in which review state; what counts as a
//! vote, what is never one and how ids are kept apart is decided here once.
//!
//! - A comment by a deleted account counts for nothing (GitHub shows
//!   `null`, Forgejo its `Ghost`): it is left out.
//! - A submitted review votes by its body, or by its state where the rules
//!   let states vote; a pending one (and Forgejo's request for a review) is
//!   no vote, and a review with comments only and an empty body says
//!   nothing but through its line comments.
//! - A dismissed review, and a line comment made in one, is reported as
//!   [`Via::Dismissed`]: never a vote, but known, so a vote first seen in
//!   it is not taken for one deleted since.
//! - Reviews and line comments come from other id sequences than the
//!   conversation's, so their ids are offset to never collide (ids only
//!   break ties between comments made at the same second).

use super::{ForgeComment, ForgeError, Login};
use crate::matter::{ReviewState, Via};
use crate::time::Timestamp;

/// Review ids are offset by this so they never collide with comment ids.
pub(crate) const REVIEW_ID_OFFSET: u64 = 1 << 50;

/// Ids of comments on lines of a diff, likewise (another sequence).
pub(crate) const LINE_COMMENT_ID_OFFSET: u64 = 1 << 51;

/// A forge's timestamp.
pub(crate) fn time(text: &str) -> Result<Timestamp, ForgeError> {
    Timestamp::parse(text).map_err(|e| ForgeError::Other(format!("the forge sent a bad time: {e}")))
}

/// A comment as a forge gives it: `login` is `None` for a deleted account.
pub(crate) struct Written<'a> {
    pub(crate) id: u64,
    pub(crate) login: Option<String>,
    pub(crate) created: &'a str,
    pub(crate) updated: &'a str,
    pub(crate) body: Option<String>,
    pub(crate) link: Option<String>,
}

/// What a review's state means for the tally, in the forge's own words
/// mapped by its adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reviewed {
    /// Submitted in this state.
    Submitted(ReviewState),
    /// Dismissed (GitHub's `DISMISSED`, Forgejo's `dismissed: true`).
    Dismissed,
    /// Not a submitted review (pending, a request for one, unknown).
    NotSubmitted,
}

/// A review as a forge gives it.
pub(crate) struct Review {
    pub(crate) id: u64,
    pub(crate) login: Option<String>,
    pub(crate) submitted: Option<String>,
    pub(crate) body: Option<String>,
    pub(crate) link: Option<String>,
    pub(crate) state: Reviewed,
}

/// A conversation comment; `None` for a deleted account's.
pub(crate) fn conversation(c: Written<'_>) -> Result<Option<ForgeComment>, ForgeError> {
    written(c, 0, Via::Comment)
}

/// A comment on a line of the diff, made in a dismissed review or not.
pub(crate) fn line_comment(
    c: Written<'_>,
    in_dismissed: bool,
) -> Result<Option<ForgeComment>, ForgeError> {
    let via = if in_dismissed {
        Via::Dismissed
    } else {
        Via::LineComment
    };
    written(c, LINE_COMMENT_ID_OFFSET, via)
}

fn written(c: Written<'_>, offset: u64, via: Via) -> Result<Option<ForgeComment>, ForgeError> {
    let Some(login) = c.login else {
        return Ok(None);
    };
    let created = time(c.created)?;
    let updated = time(c.updated)?;
    Ok(Some(ForgeComment {
        id: c.id + offset,
        author: Login(login),
        created,
        edited: (updated > created).then_some(updated),
        body: c.body.unwrap_or_default(),
        link: c.link,
        via,
    }))
}

/// A review as the tally reads it; `None` when it says nothing: not
/// submitted, by a deleted account, or comments only with an empty body.
/// A review's edit time is not given (GitHub gives none), so a change of
/// its words is noticed by the journal when it is seen.
pub(crate) fn review(r: Review) -> Result<Option<ForgeComment>, ForgeError> {
    let via = match r.state {
        Reviewed::Submitted(state) => Via::Review(state),
        Reviewed::Dismissed => Via::Dismissed,
        Reviewed::NotSubmitted => return Ok(None),
    };
    let (Some(login), Some(at)) = (r.login, r.submitted) else {
        return Ok(None);
    };
    let body = r.body.unwrap_or_default();
    if via == Via::Review(ReviewState::Commented) && body.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(ForgeComment {
        id: r.id + REVIEW_ID_OFFSET,
        author: Login(login),
        created: time(&at)?,
        edited: None,
        body,
        link: r.link,
        via,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_review(state: Reviewed, body: &str) -> Review {
        Review {
            id: 7,
            login: Some("ada".into()),
            submitted: Some("2030-01-01T00:00:00Z".into()),
            body: Some(body.into()),
            link: None,
            state,
        }
    }

    #[test]
    fn only_submitted_reviews_by_accounts_that_exist_say_anything() {
        let approved = review(a_review(Reviewed::Submitted(ReviewState::Approved), "")).unwrap();
        assert_eq!(approved.as_ref().map(|c| c.id), Some(7 + REVIEW_ID_OFFSET));
        assert_eq!(
            review(a_review(Reviewed::Dismissed, "FOR"))
                .unwrap()
                .map(|c| c.via),
            Some(Via::Dismissed)
        );
        assert!(
            review(a_review(Reviewed::NotSubmitted, "FOR"))
                .unwrap()
                .is_none()
        );
        assert!(
            review(a_review(Reviewed::Submitted(ReviewState::Commented), " "))
                .unwrap()
                .is_none()
        );
        let ghost = Review {
            login: None,
            ..a_review(Reviewed::Submitted(ReviewState::Approved), "FOR")
        };
        assert!(review(ghost).unwrap().is_none());
    }

    #[test]
    fn an_edit_is_known_by_its_time() {
        let c = Written {
            id: 3,
            login: Some("ada".into()),
            created: "2030-01-01T00:00:00Z",
            updated: "2030-01-01T01:00:00Z",
            body: Some("FOR".into()),
            link: None,
        };
        let c = conversation(c).unwrap().unwrap();
        assert_eq!(c.edited, Some(time("2030-01-01T01:00:00Z").unwrap()));
        let line = Written {
            id: 3,
            login: Some("ada".into()),
            created: "2030-01-01T00:00:00Z",
            updated: "2030-01-01T00:00:00Z",
            body: None,
            link: None,
        };
        let line = line_comment(line, true).unwrap().unwrap();
        assert_eq!(
            (line.id, line.via, line.edited),
            (3 + LINE_COMMENT_ID_OFFSET, Via::Dismissed, None)
        );
    }
}
