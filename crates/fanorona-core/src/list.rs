//! Lists of turns and steps that live on the stack for every ordinary position.
//!
//! They are this crate's own types (the storage behind them is a private detail), act as
//! slices (`Deref<Target = [T]>`), and add the few growing and shrinking operations move
//! ordering needs.

use core::fmt;
use core::ops::{Deref, DerefMut};

use smallvec::SmallVec;

use crate::{Step, Turn};

macro_rules! stack_list {
    ($(#[$doc:meta])* $name:ident, $iter:ident, $item:ty, $n:literal) => {
        $(#[$doc])*
        #[derive(Clone, Default, PartialEq, Eq, Hash)]
        pub struct $name(SmallVec<[$item; $n]>);

        impl $name {
            /// An empty list.
            #[inline]
            pub fn new() -> $name {
                $name(SmallVec::new())
            }

            /// Appends an item.
            #[inline]
            pub fn push(&mut self, item: $item) {
                self.0.push(item);
            }

            /// Removes and returns the last item.
            #[inline]
            pub fn pop(&mut self) -> Option<$item> {
                self.0.pop()
            }

            /// Removes the item at `index` and returns it, moving the last item into its place.
            ///
            /// # Panics
            ///
            /// When `index` is out of bounds.
            #[inline]
            pub fn swap_remove(&mut self, index: usize) -> $item {
                self.0.swap_remove(index)
            }

            /// Removes the item at `index` and returns it, keeping the order of the others.
            ///
            /// # Panics
            ///
            /// When `index` is out of bounds.
            #[inline]
            pub fn remove(&mut self, index: usize) -> $item {
                self.0.remove(index)
            }

            /// Keeps only the items for which `keep` returns true, in order.
            #[inline]
            pub fn retain(&mut self, mut keep: impl FnMut(&$item) -> bool) {
                self.0.retain(|item| keep(item));
            }

            /// Shortens the list to `len` items (nothing happens when it is shorter).
            #[inline]
            pub fn truncate(&mut self, len: usize) {
                self.0.truncate(len);
            }

            /// Removes every item.
            #[inline]
            pub fn clear(&mut self) {
                self.0.clear();
            }

            /// The items as a slice.
            #[inline]
            pub fn as_slice(&self) -> &[$item] {
                &self.0
            }

            /// The items as a vector.
            pub fn to_vec(&self) -> Vec<$item> {
                self.0.to_vec()
            }
        }

        impl Deref for $name {
            type Target = [$item];
            #[inline]
            fn deref(&self) -> &[$item] {
                &self.0
            }
        }

        impl DerefMut for $name {
            #[inline]
            fn deref_mut(&mut self) -> &mut [$item] {
                &mut self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }

        impl FromIterator<$item> for $name {
            fn from_iter<I: IntoIterator<Item = $item>>(iter: I) -> $name {
                $name(iter.into_iter().collect())
            }
        }

        impl Extend<$item> for $name {
            fn extend<I: IntoIterator<Item = $item>>(&mut self, iter: I) {
                self.0.extend(iter);
            }
        }

        impl<'a> IntoIterator for &'a $name {
            type Item = &'a $item;
            type IntoIter = core::slice::Iter<'a, $item>;
            #[inline]
            fn into_iter(self) -> core::slice::Iter<'a, $item> {
                self.0.iter()
            }
        }

        impl IntoIterator for $name {
            type Item = $item;
            type IntoIter = $iter;
            #[inline]
            fn into_iter(self) -> $iter {
                $iter(self.0.into_iter())
            }
        }

        impl From<$name> for Vec<$item> {
            fn from(list: $name) -> Vec<$item> {
                list.0.into_vec()
            }
        }

        #[doc = concat!("The items of a [`", stringify!($name), "`], by value.")]
        pub struct $iter(smallvec::IntoIter<[$item; $n]>);

        impl Iterator for $iter {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> Option<$item> {
                self.0.next()
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }
        }

        impl DoubleEndedIterator for $iter {
            #[inline]
            fn next_back(&mut self) -> Option<$item> {
                self.0.next_back()
            }
        }

        impl ExactSizeIterator for $iter {}

        impl fmt::Debug for $iter {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.as_slice()).finish()
            }
        }
    };
}

stack_list!(
    /// A list of turns, kept on the stack for all ordinary positions (it moves to the heap
    /// only past 128 turns, far more than real games produce). It derefs to `[Turn]`.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let mut turns = Position::standard().legal_turns();
    /// assert_eq!(turns.len(), 5);
    /// turns.retain(|t| t.captured().count() == 2);
    /// let mut text: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
    /// text.sort();
    /// assert_eq!(text, ["d2-e3A", "e2-e3A", "f2-e3A"]);
    /// ```
    TurnList,
    TurnListIntoIter,
    Turn,
    128
);

stack_list!(
    /// A list of steps, kept on the stack. It derefs to `[Step]`.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let builder = Position::standard().begin_turn();
    /// let steps = builder.legal_steps();
    /// assert_eq!(steps.len(), 5);
    /// assert!(steps.iter().all(|s| s.kind.is_capture()));
    /// ```
    StepList,
    StepListIntoIter,
    Step,
    64
);
