#!/usr/bin/env bash
# install-validator.sh DIR installs the SARIF multitool (the validator GitHub
# code scanning's checks come from) into DIR, for sarif_validate_test.go:
#
#   bash report/testdata/install-validator.sh /tmp/sarifval
#   HOLDFAST_SARIF_VALIDATOR=/tmp/sarifval go test -run Validator ./report/
#
# It needs node and npm, and the npm registry.
set -euo pipefail

if [ "$#" -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
version=5.7.0

mkdir -p "$dir"
cd "$dir"
if [ ! -f package.json ]; then
	npm init -y >/dev/null
fi
npm install --no-audit --no-fund "@microsoft/sarif-multitool@$version"

bin=node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -x "$bin" ]; then
	# The platform package ships the native binary; npm may drop the mode bit.
	if [ -f "$bin" ]; then
		chmod +x "$bin"
	else
		echo "install-validator: $dir/$bin not found after npm install" >&2
		exit 1
	fi
fi
echo "validator installed: $dir/$bin"
