//! The engine's tests, in one binary: the worked scenarios ([`scenarios`]),
//! and the properties ([`props`]) that hold on random games, among them
//! that the engine decides and looks ahead as the slow [`reference`]
//! engine does. Pure: the library only, no binary, no files but the
//! scenarios, so they run in seconds apart from the testsuite.

mod props;
mod reference;
mod scenarios;
