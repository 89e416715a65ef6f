#!/usr/bin/env bash
# Installs every Debian 12 package ContactArena builds, tests or plots with.
# Idempotent: quiet when everything is present; runs `apt-get update` only when
# something is missing. Run as root or with passwordless sudo.
# Optional groups, for the targets that need more: `fuzz` (clang and its libFuzzer runtime,
# for `make fuzz`).
set -euo pipefail

packages=(
  build-essential cmake pkg-config git ccache
  libeigen3-dev libceres-dev libtbb-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libfmt-dev libspdlog-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  liburdfdom-dev libtinyxml2-dev libassimp-dev libqhull-dev libcsv-dev zlib1g-dev
  dart-doc libmujoco-dev libdart-dev
  libopenmpi-dev openmpi-bin
  python3 python3-matplotlib python3-pandas
)
for group in "$@"; do
  case "$group" in
    fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    *) echo "install-deps: unknown group '$group' (known: fuzz)" >&2; exit 2 ;;
  esac
done

# The robot files the experiments and tests load (Atlas URDF + STL meshes, OpenAI MJCF).
dart_data=/usr/share/doc/dart/data/sdf/atlas/atlas_v3_no_head.urdf

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Minimal Debian images often tell dpkg not to unpack /usr/share/doc (a path-exclude in
# /etc/dpkg/dpkg.cfg.d/), which silently drops dart-doc's data: re-include it.
if [ ! -f "$dart_data" ]; then
  echo "install-deps: $dart_data is missing; reinstalling dart-doc with /usr/share/doc/dart included"
  $sudo apt-get install -y -qq --reinstall \
    -o Dpkg::Options::="--path-include=/usr/share/doc/dart/*" dart-doc >/dev/null
  if [ ! -f "$dart_data" ]; then
    echo "install-deps: error: dart-doc is installed but $dart_data is still missing" >&2
    exit 1
  fi
fi
