#!/bin/bash
# Runs every configuration on this program, in a directory of its own.
cd "$(dirname "$0")"
rm -rf run-host && mkdir run-host && cp prog.star run-host/ && (cd run-host && /tmp/tmpp4b6dcw9/star run --engine=host prog.star ); echo "host: status $?"
rm -rf run-device && mkdir run-device && cp prog.star run-device/ && (cd run-device && /tmp/tmpp4b6dcw9/star run --engine=device prog.star ); echo "device: status $?"
