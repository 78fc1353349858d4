//! Rules of Fanorona.
