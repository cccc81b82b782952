# Sourced by .ci/setup.sh and .ci/fuzz.sh: what both need to install Debian
# packages a fresh machine lacks, written once.
#   have_cmd NAME                    true when NAME is on the PATH
#   install_debian_packages WHO PKG...  apt-get installs PKG... (nothing when none
#                                    is given), with sudo when not root; WHO
#                                    prefixes the messages ("setup", "fuzz").
#   fuzz_packages_missing            prints the Debian packages the libFuzzer targets
#                                    (.ci/fuzz.sh) need and the machine lacks, one a line

have_cmd() { command -v "$1" >/dev/null 2>&1; }

install_debian_packages() {
  local who=$1
  shift
  [ $# -gt 0 ] || return 0
  echo "$who: installing $* (Debian packages)"
  local sudo=
  if [ "$(id -u)" != 0 ]; then
    if have_cmd sudo; then sudo=sudo; else
      echo "$who: need root to install: $*. Run: apt-get install -y $*" >&2
      exit 1
    fi
  fi
  # Another apt (a person's, or `npm test`'s own background install) may hold the lock
  # for a while: wait for it rather than fail.
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null
}

fuzz_packages_missing() {
  have_cmd cmake || echo cmake
  have_cmd clang++-14 || echo clang-14
  compgen -G "/usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null ||
    echo libclang-rt-14-dev
  [ -f /usr/include/xxhash.h ] || echo libxxhash-dev
}
