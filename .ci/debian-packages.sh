# Sourced by .ci/setup.sh and .ci/fuzz.sh: what both need to install Debian
# packages a fresh machine lacks, written once.
#   have_cmd NAME                    true when NAME is on the PATH
#   install_debian_packages WHO PKG...  apt-get installs PKG... (nothing when none
#                                    is given), with sudo when not root; WHO
#                                    prefixes the messages ("setup", "fuzz").

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
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
