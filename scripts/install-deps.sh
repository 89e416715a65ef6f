#!/usr/bin/env bash
# Installs every Debian 12 package ContactArena builds, tests or plots with.
# Idempotent: quiet when everything is present; runs `apt-get update` only when
# something is missing. Run as root or with passwordless sudo.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libeigen3-dev libceres-dev libtbb-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libfmt-dev libspdlog-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  liburdfdom-dev libtinyxml2-dev libassimp-dev libqhull-dev libcsv-dev zlib1g-dev
  dart-doc
  python3 python3-matplotlib python3-pandas
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
