#!/usr/bin/env bash
# The GitHub Action's step (action.yml): build the runner with its version stamped, run it, and
# hand its exit status, its report directory and a Markdown job summary to the workflow.
#
# Every input comes from the environment, never pasted into this script, so no value is ever
# run as code: INPUT_URL, INPUT_OWNER_EMAIL, INPUT_OWNER_API_KEY, INPUT_FEATURES,
# INPUT_OWNER_PERMISSIONS, INPUT_REPORT_DIR (default $RUNNER_TEMP/chatconform-reports),
# INPUT_REPORT_NAME (the artifact's name; default one per job and inputs) and INPUT_ARGS, further
# flags of `chatconform run`: split at white space, or, when it has several lines, one flag per
# line, with its value after a space or an = (for values with spaces). GitHub sets GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY, RUNNER_TEMP, GITHUB_ACTION_PATH and GITHUB_ACTION_REF; run locally, the
# script falls back to its own checkout and a temporary directory.
set -uo pipefail

src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=${RUNNER_TEMP:-$(mktemp -d)}
reports=${INPUT_REPORT_DIR:-$tmp/chatconform-reports}
bin=$tmp/chatconform-bin/chatconform
output=${GITHUB_OUTPUT:-/dev/null}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}

# set_output name value, in the delimiter form, so no value can add an output of its own.
set_output() {
  local delimiter="chatconform_$RANDOM$RANDOM$RANDOM"
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"$output"
}

# The artifact's name: the report-name input, else one per job and inputs, so the jobs of a
# matrix (another URL, other features or args) upload under names of their own. Set before the
# build, so the upload step has it whatever happens next.
name=${INPUT_REPORT_NAME:-}
if [ -z "$name" ]; then
  digest=$(printf '%s\n' "${INPUT_URL:-}" "${INPUT_FEATURES:-}" "${INPUT_OWNER_PERMISSIONS:-}" "${INPUT_ARGS:-}" "${INPUT_REPORT_DIR:-}" |
    sha256sum | cut -c1-8)
  name="chatconform-reports-${GITHUB_JOB:-job}-$digest"
fi
set_output artifact-name "$name"

# `go run` would turn every failure into status 1: build, then run, so 2 and 3 reach the
# workflow. The version is the checkout's (a `uses: ./` of this repository) or the action's ref
# (a `uses: chatconform/chatconform@v1`, which GitHub fetches without its history).
version=$(git -C "$src" describe --tags --always --dirty 2>/dev/null || true)
version=${version:-${GITHUB_ACTION_REF:-}}
ldflags=
if [ -n "$version" ]; then
  ldflags="-X github.com/chatconform/chatconform/harness.Version=$version"
fi
if ! (cd "$src" && go build -ldflags "$ldflags" -o "$bin" ./cmd/chatconform); then
  echo "chatconform: building the runner failed" >&2
  printf '## chatconform: the runner could not be built\n\nSee the step log.\n' >>"$summary"
  exit 1
fi

args=()
if [[ ${INPUT_ARGS:-} == *$'\n'* ]]; then
  # One flag per line. A line "--flag value with spaces" is the flag and its value; a line
  # "--flag=value with spaces" or a value alone is one argument.
  while IFS= read -r line; do
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    if [ -z "$line" ]; then continue; fi
    flag=${line%%[[:space:]]*}
    if [[ $line == -* && $flag != *=* && $flag != "$line" ]]; then
      value=${line#"$flag"}
      value=${value#"${value%%[![:space:]]*}"}
      args+=("$flag" "$value")
    else
      args+=("$line")
    fi
  done <<<"$INPUT_ARGS"
else
  read -r -a args <<<"${INPUT_ARGS:-}"
fi

# Empty variables count as unset for the runner.
export CHATCONFORM_URL=${INPUT_URL:-}
export CHATCONFORM_OWNER_EMAIL=${INPUT_OWNER_EMAIL:-}
export CHATCONFORM_OWNER_API_KEY=${INPUT_OWNER_API_KEY:-}
export CHATCONFORM_FEATURES=${INPUT_FEATURES:-}
export CHATCONFORM_OWNER_PERMISSIONS=${INPUT_OWNER_PERMISSIONS:-}
export CHATCONFORM_REPORT_DIR=$reports

# A previous run's reports in the same directory must not pass for this run's.
rm -f "$reports/conformance.json" "$reports/conformance.html" "$reports/junit.xml"
stderr=$tmp/chatconform-stderr.txt
"$bin" run "${args[@]}" 2>"$stderr"
code=$?
cat "$stderr" >&2

set_output exit-code "$code"
set_output report-dir "$reports"

case $code in
  0) meaning="conformant" ;;
  1) meaning="not conformant" ;;
  2) meaning="invalid settings" ;;
  3) meaning="the run could not be set up" ;;
  *) meaning="the runner failed" ;;
esac
{
  if [ -f "$reports/conformance.json" ]; then
    "$bin" summary "$reports"
    printf '\n'
  else
    printf '## chatconform: %s\n\n' "$meaning"
  fi
  printf 'Exit status %s (%s).\n' "$code" "$meaning"
  if [ "$code" -ge 2 ] && [ -s "$stderr" ]; then
    printf '\n```\n%s\n```\n' "$(tail -n 1 "$stderr")"
  fi
} >>"$summary"
exit "$code"
