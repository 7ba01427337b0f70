# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the tools/vm scripts (sourced, not run).

# Everything heavy (kernels, initramfs, module objects) lives here so that a
# clean checkout never rebuilds what another checkout already has.
# shellcheck disable=SC2034 # used by the scripts that source this
cache=${PACER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pacer}

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# copy_elf ROOT FILE...: copy executables or libraries into ROOT at the same
# paths, plus every shared library they load.
copy_elf() {
	local root=$1 f
	shift
	for f in "$@"; do
		[ -e "$root$f" ] || cp -L --parents "$f" "$root"
		copy_libs "$root" "$f"
	done
}

# copy_libs ROOT FILE [HAVE]: copy the shared libraries FILE loads into ROOT,
# except those already in ROOT or HAVE.  ldd is the dynamic loader's own
# answer, so nothing needed at run time can be forgotten.
copy_libs() {
	local root=$1 f=$2 have=${3:-$1} lib
	# "name => /path (addr)" or "/path (addr)"; the vdso has no path.
	for lib in $(ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$root$lib" ] || [ -e "$have$lib" ] || cp -L --parents "$lib" "$root"
	done
}

# is_elf FILE: true for ELF files (selftests may ship compiled helpers).
is_elf() {
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]
}

# mkcpio DIR: newc archive of DIR on stdout, owned by root whoever builds it.
mkcpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0)
}
