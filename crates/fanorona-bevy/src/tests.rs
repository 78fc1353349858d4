//! Headless tests of the game flow.
