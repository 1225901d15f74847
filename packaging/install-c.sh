#!/usr/bin/env bash
# Builds wayfarer in release mode and installs it as a C library (Linux):
#
#   <prefix>/include/wayfarer/wayfarer.h
#   <libdir>/libwayfarer.so.<version>            soname libwayfarer.so.<major>
#   <libdir>/libwayfarer.so.<major> -> libwayfarer.so.<version>
#   <libdir>/libwayfarer.so         -> libwayfarer.so.<major>
#   <libdir>/libwayfarer.a
#   <libdir>/pkgconfig/wayfarer.pc               pkg-config wayfarer
#   <libdir>/cmake/wayfarer/wayfarerConfig.cmake find_package(wayfarer): wayfarer::wayfarer (shared),
#   <libdir>/cmake/wayfarer/wayfarerConfigVersion.cmake                  wayfarer::wayfarer_static
#
#   bash packaging/install-c.sh                       # into /usr/local (needs write access there)
#   bash packaging/install-c.sh --prefix "$HOME/.local"
#   bash packaging/install-c.sh --prefix /usr --libdir lib/x86_64-linux-gnu --destdir pkgroot
#   bash packaging/install-c.sh --uninstall --prefix "$HOME/.local"
#
# --destdir stages the files under another root (for distribution packages); the paths written
# into wayfarer.pc and the CMake files stay those of --prefix. The CMake package is relocatable:
# it finds the library relative to its own location.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
libdir=lib
destdir=""
build=1
uninstall=0
die() { echo "install-c.sh: $*" >&2; exit 1; }
while (($#)); do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
    --libdir) libdir="${2:?--libdir needs a directory (relative to the prefix, or absolute)}"; shift 2 ;;
    --destdir) destdir="${2:?--destdir needs a directory}"; shift 2 ;;
    --no-build) build=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
[[ "$(uname -s)" == Linux ]] || die "installs the Linux layout (.so, soname); on other systems link target/release directly"
[[ "$prefix" == /* ]] || prefix="$(pwd)/$prefix"
[[ "$libdir" == /* ]] || libdir="$prefix/$libdir"
[[ -z "$destdir" || "$destdir" == /* ]] || destdir="$(pwd)/$destdir"
includedir="$prefix/include"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -1)"
major="${version%%.*}"
cmakedir="$libdir/cmake/wayfarer"

if ((uninstall)); then
  rm -fv "$destdir$includedir/wayfarer/wayfarer.h" "$destdir$libdir/libwayfarer.so.$version" \
    "$destdir$libdir/libwayfarer.so.$major" "$destdir$libdir/libwayfarer.so" "$destdir$libdir/libwayfarer.a" \
    "$destdir$libdir/pkgconfig/wayfarer.pc" "$destdir$cmakedir/wayfarerConfig.cmake" \
    "$destdir$cmakedir/wayfarerConfigVersion.cmake"
  rmdir "$destdir$includedir/wayfarer" "$destdir$cmakedir" 2>/dev/null || true
  exit 0
fi

if ((build)); then
  (cd "$repo" && cargo build --release --lib --quiet)
fi
target_dir="$(cd "$repo" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
built="$target_dir/release"
[[ -f "$built/libwayfarer.so" && -f "$built/libwayfarer.a" ]] || die "no release build in $built (drop --no-build)"
if command -v readelf >/dev/null 2>&1; then
  soname="$(readelf -d "$built/libwayfarer.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')"
  [[ "$soname" == "libwayfarer.so.$major" ]] || die "built library has soname '$soname', not libwayfarer.so.$major (build.rs sets it)"
fi

install -d "$destdir$includedir/wayfarer" "$destdir$libdir/pkgconfig" "$destdir$cmakedir"
install -m 644 "$repo/include/wayfarer.h" "$destdir$includedir/wayfarer/wayfarer.h"
install -m 755 "$built/libwayfarer.so" "$destdir$libdir/libwayfarer.so.$version"
ln -sfn "libwayfarer.so.$version" "$destdir$libdir/libwayfarer.so.$major"
ln -sfn "libwayfarer.so.$major" "$destdir$libdir/libwayfarer.so"
install -m 644 "$built/libwayfarer.a" "$destdir$libdir/libwayfarer.a"

# The static library needs what Rust's standard library links on Linux.
static_deps="-lpthread -ldl -lm"

cat >"$destdir$libdir/pkgconfig/wayfarer.pc" <<EOF
prefix=$prefix
libdir=$libdir
includedir=$includedir

Name: wayfarer
Description: Moves game characters: curves, timed paths and crowd avoidance (C ABI)
Version: $version
Libs: -L\${libdir} -lwayfarer
Libs.private: $static_deps
Cflags: -I\${includedir} -I\${includedir}/wayfarer
EOF

# From the CMake directory back to the prefix, so the package can be moved as a whole.
up="$(realpath -m --relative-to="$cmakedir" "$prefix")"
lib_rel="$(realpath -m --relative-to="$prefix" "$libdir")"
cat >"$destdir$cmakedir/wayfarerConfig.cmake" <<EOF
# wayfarer $version: find_package(wayfarer) gives
#   wayfarer::wayfarer         the shared library (libwayfarer.so.$major)
#   wayfarer::wayfarer_static  the static library (links Threads, dl and m)
# Both put <prefix>/include (for <wayfarer/wayfarer.h>) and <prefix>/include/wayfarer (for
# "wayfarer.h") on the include path.
include(CMakeFindDependencyMacro)
find_dependency(Threads)

get_filename_component(_wayfarer_prefix "\${CMAKE_CURRENT_LIST_DIR}/$up" ABSOLUTE)
set(_wayfarer_libdir "\${_wayfarer_prefix}/$lib_rel")
set(_wayfarer_includes "\${_wayfarer_prefix}/include;\${_wayfarer_prefix}/include/wayfarer")

if(NOT TARGET wayfarer::wayfarer)
  add_library(wayfarer::wayfarer SHARED IMPORTED)
  set_target_properties(wayfarer::wayfarer PROPERTIES
    IMPORTED_LOCATION "\${_wayfarer_libdir}/libwayfarer.so.$version"
    IMPORTED_SONAME "libwayfarer.so.$major"
    INTERFACE_INCLUDE_DIRECTORIES "\${_wayfarer_includes}")
endif()
if(NOT TARGET wayfarer::wayfarer_static)
  add_library(wayfarer::wayfarer_static STATIC IMPORTED)
  set_target_properties(wayfarer::wayfarer_static PROPERTIES
    IMPORTED_LOCATION "\${_wayfarer_libdir}/libwayfarer.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_wayfarer_includes}"
    INTERFACE_LINK_LIBRARIES "Threads::Threads;\${CMAKE_DL_LIBS};m")
endif()

set(wayfarer_VERSION $version)
set(wayfarer_INCLUDE_DIRS "\${_wayfarer_includes}")
set(wayfarer_LIBRARIES wayfarer::wayfarer)
unset(_wayfarer_prefix)
unset(_wayfarer_libdir)
unset(_wayfarer_includes)
EOF

# Before 1.0 a minor release may break the ABI, so only the same major.minor (and not newer
# than this) is compatible; a 32-bit project cannot use this 64-bit build.
cat >"$destdir$cmakedir/wayfarerConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(NOT PACKAGE_FIND_VERSION_MAJOR EQUAL "$major")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif("$major" EQUAL 0 AND DEFINED PACKAGE_FIND_VERSION_MINOR
       AND NOT PACKAGE_FIND_VERSION_MINOR EQUAL "$(echo "$version" | cut -d. -f2)")
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
if(CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P EQUAL 8)
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
EOF

echo "installed wayfarer $version into $destdir$prefix:"
(cd "$destdir$prefix" && find include/wayfarer "${libdir#"$prefix"/}" -name '*wayfarer*' | LC_ALL=C sort | sed 's/^/  /')
