# The Debian package of what `cmake --install` installs, built by CPack:
#   cpack --preset release        (scripts/package does the whole thing)
#   cpack --config BUILD/CPackConfig.cmake -G DEB -B DIR
# gives bstore_<version>_<arch>.deb, installed with
# `apt install ./bstore_<version>_<arch>.deb`. Its Depends are worked out
# by dpkg-shlibdeps (Debian's dpkg-dev) from the libraries bstore links.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bstore)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT
	"bstore maintainers <maintainers@users.noreply.a-seed-46d0d00b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
	"results database and report toolkit for disk benchmarks")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # bstore_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The README queries the archive with sqlite3 and feeds bstore bonnie++'s
# output; bstore itself needs neither.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS sqlite3)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bonnie++")
# The extended description: CPack puts the summary above it and indents
# its lines by one space, as dpkg wants.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "\
bstore keeps every disk and file-system benchmark result in one SQLite
file and compares them. It reads bonnie and bonnie++ CSV lines of every
version (1.00 to 2.00a, also as pasted into mails and blogs), stores each
run once with its tags, and renders side-by-side comparisons with diffs
and ratios as HTML, text, CSV or JSON. It also runs a bonnie++-compatible
benchmark of its own and stores the result with the host's facts.")
include(CPack)
