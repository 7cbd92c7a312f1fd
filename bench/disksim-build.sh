# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# bench/disksim-build.sh: sourced by bench/disksim-compare and bench/disksim-atlas10k. Builds
# DiskSim 4.0 outside the repository (see disksim-compare's header for the environment) and
# leaves its tree in $ds_dir/disksim-4.0. The caller sets ds_dir, ds_src, ds_ref, patch_src,
# patch_path and ds_cflags (disksim_defaults does) and defines die.

disksim_defaults() {
  ds_dir=${DISKSIM_DIR:-/var/cache/memstore-disksim}
  ds_src=${DISKSIM_SRC:-https://github.com/benh/disksim.git}
  ds_ref=${DISKSIM_REF:-1141f8d913473fe9ceb3766de9a48ec93a3ebc78}
  patch_src=${DISKSIM_PATCH_SRC:-https://github.com/westerndigitalcorporation/DiskSim.git}
  patch_path=${DISKSIM_PATCH_PATH:-STABLE/DiskSim_Linux_Generic_2.01.016/disksim_4.0_64bit.patch}
  ds_cflags=${DISKSIM_CFLAGS--O2}
}

# --- DiskSim: source, 64-bit patch, build --------------------------------------------------

# Clones $1 into $2 unless $2 is already a clone of $1 holding commit $3 (or HEAD).
fetch_git() {
  local src=$1 dir=$2 ref=$3
  if [ -d "$dir/.git" ] && [ "$(git -C "$dir" remote get-url origin)" = "$src" ] &&
     git -C "$dir" cat-file -e "$ref^{commit}" 2>/dev/null; then
    return
  fi
  rm -rf "$dir"
  git clone --quiet --no-checkout "$src" "$dir"
}

ds_build_inputs() {
  echo "src=$ds_src ref=$ds_ref patch=$patch_src:$patch_path cflags=$ds_cflags"
  echo "fixes=$(sed -n '/^apply_build_fixes()/,/^}/p' "${BASH_SOURCE[0]}" | md5sum | cut -c1-12)"
}

# DiskSim 4.0 with the 64-bit patch still needs three changes to build with a current
# toolchain (gcc 12 and binutils 2.40 on Debian bookworm here). Each edit is checked, so a
# different tree fails loudly instead of building something else:
# - GNU89 inline semantics and -fcommon (passed on make's command line below): the headers
#   declare `inline` functions that C99 would leave undefined, and define globals in headers;
# - libm after the objects that use it, for the MEMS seek test tool and for disksim;
# - libdisksim and libmemsmodel call each other, so they are linked as one group.
apply_build_fixes() {
  local t=$1
  sed -i 's/-lmems_internals$/-lmems_internals -lm/' "$t/memsmodel/Makefile"
  grep -q -- '-lmems_internals -lm$' "$t/memsmodel/Makefile" || die "memsmodel/Makefile: link fix did not apply"
  # shellcheck disable=SC2016 # $(...) here is make syntax, matched literally
  sed -i -e 's/^LDFLAGS = -lm -L\. -ldisksim /LDFLAGS = -lm -L. -Wl,--start-group -ldisksim /' \
    -e 's/^\([[:space:]]*\$(LIBPARAM_LDFLAGS) \$(LIBDDBG_LDFLAGS)\)[[:space:]]*$/\1 -Wl,--end-group -lm/' \
    "$t/src/Makefile"
  if ! grep -q -- '--start-group -ldisksim' "$t/src/Makefile" ||
     ! grep -q -- '--end-group -lm$' "$t/src/Makefile"; then
    die "src/Makefile: link fix did not apply"
  fi
}

build_disksim() {
  local tree=$ds_dir/disksim-4.0 stamp=$ds_dir/disksim-4.0/.memstore-build
  if [ -x "$tree/src/disksim" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(ds_build_inputs)" ]; then
    return
  fi
  mkdir -p "$ds_dir" || die "cannot create $ds_dir (set DISKSIM_DIR)"
  echo "disksim-compare: building DiskSim 4.0 in $tree" >&2
  fetch_git "$ds_src" "$ds_dir/source.git" "$ds_ref"
  rm -rf "$tree"
  mkdir -p "$tree"
  git -C "$ds_dir/source.git" archive "$ds_ref" | tar -x -C "$tree"
  if [ "$patch_src" != none ]; then
    fetch_git "$patch_src" "$ds_dir/patch.git" HEAD
    git -C "$ds_dir/patch.git" show "HEAD:$patch_path" >"$ds_dir/disksim_4.0_64bit.patch"
    patch -d "$tree" -p1 -s <"$ds_dir/disksim_4.0_64bit.patch"
  fi
  apply_build_fixes "$tree"
  chmod +x "$tree"/libparam/*.pl
  nice -n 19 make -C "$tree" -j1 CC="gcc -std=gnu89 -fcommon $ds_cflags -MD" >"$ds_dir/build.log" 2>&1 ||
    { tail -20 "$ds_dir/build.log" >&2; die "DiskSim build failed; see $ds_dir/build.log"; }
  [ -x "$tree/src/disksim" ] || die "no $tree/src/disksim after the build"
  ds_build_inputs >"$stamp"
}
