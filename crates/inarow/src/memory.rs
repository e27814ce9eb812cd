//! Large zeroed arrays that fail with an error instead of aborting, backed by transparent huge
//! pages where the system offers them (a random access then costs one cache miss instead of a
//! cache miss and a page walk).

use std::sync::atomic::{AtomicU8, AtomicU64};

pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// Types whose all-zero bytes are a valid value (atomic integers and structs of them).
///
/// # Safety
/// Implement it only for types for which all-zero bytes are a valid value.
pub(crate) unsafe trait Zeroable {}
// SAFETY: an atomic integer has the layout of its integer; zero is a valid integer.
unsafe impl Zeroable for AtomicU64 {}
// SAFETY: as above.
unsafe impl Zeroable for AtomicU8 {}
// SAFETY: zero is a valid integer.
unsafe impl Zeroable for u128 {}
// SAFETY: an array of zeroable values is zeroable.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// A vector of `len` zeros, or `None` when the allocator refuses (rather than aborting).
pub(crate) fn zeroed<T: Zeroable>(len: usize) -> Option<Vec<T>> {
    if len == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    // SAFETY: the layout has a non-zero size; all-zero bytes are a valid `T` (Zeroable); the
    // allocation is handed to a Vec with the same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            None
        } else {
            Some(Vec::from_raw_parts(ptr, len, len))
        }
    }
}

/// [`zeroed`], with the huge-page-aligned part of the array marked for huge pages (Linux).
pub(crate) fn zeroed_huge<T: Zeroable>(len: usize) -> Option<Vec<T>> {
    #[allow(unused_mut)]
    let mut v = zeroed::<T>(len)?;
    #[cfg(target_os = "linux")]
    {
        let start = v.as_mut_ptr() as usize;
        let end = start + len * std::mem::size_of::<T>();
        let aligned = start.next_multiple_of(HUGE_PAGE);
        if end > aligned + HUGE_PAGE {
            // SAFETY: the range lies inside our own allocation; madvise only changes how it is
            // backed.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (end - aligned) / HUGE_PAGE * HUGE_PAGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    Some(v)
}

/// The machine's physical memory in bytes (`None` where it cannot be read).
pub(crate) fn machine_bytes() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads system configuration.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && page > 0 {
            return Some(pages as u64 * page as u64);
        }
    }
    None
}
