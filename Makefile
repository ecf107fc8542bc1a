# Every target installs what is missing first: a machine with Node.js and npm needs nothing else.
BUN := node_modules/.bin/bun
RULES_DIR ?= rules
PORT ?= 8080

.PHONY: tls-tools install run test test-timings lint format typecheck bench build image vsix package clean chromium podman coverage-tools neovim screenshot registry-tools prometheus-tools postgresql-tools

install: node_modules/.install-stamp

# npm installs the pinned Bun binary along with the other packages (package-lock.json).
node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@$(BUN) --version >/dev/null 2>&1 || node node_modules/bun/install.js
	@$(BUN) --version >/dev/null
	@touch $@

run: install
	@token=$${RULE_SERVER_TOKEN:-dev-$$(node -e 'process.stdout.write(require("crypto").randomBytes(12).toString("hex"))')}; \
	echo "Development token: $$token"; \
	echo "In a second terminal:"; \
	echo "export TOKEN=$$token"; \
	RULE_SERVER_TOKEN=$$token RULES_DIR=$(RULES_DIR) PORT=$(PORT) exec $(BUN) src/main.ts

# Browser tests drive Debian's Chromium; like wrk for the benchmark, it is installed when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) || sudo apt-get install -y -qq chromium

# The coverage tests read rule-server's reports with the tools CI services use: Debian's lcov
# (lcov --summary, genhtml) and xmllint (libxml2-utils) for the Cobertura DTD; installed when missing.
coverage-tools:
	@(command -v lcov && command -v genhtml && command -v xmllint) >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lcov libxml2-utils) || sudo apt-get install -y -qq lcov libxml2-utils

# The README's Neovim configuration for Neovims before 0.11 is run in Debian's Neovim (0.7.2 on
# Debian 12); installed when missing.
neovim:
	@command -v nvim >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim) || sudo apt-get install -y -qq neovim

# The image test runs the image with podman (runc: crun refuses hybrid cgroups) and, for a user other
# than root, in a user namespace whose id maps newuidmap and newgidmap write (uidmap, which rootless
# podman needs too). All are Debian packages, installed when missing; runc is in /usr/sbin, which
# an ordinary user's PATH may lack.
podman:
	@PATH="$$PATH:/usr/local/sbin:/usr/sbin:/sbin"; (command -v podman && command -v runc && command -v newuidmap && command -v newgidmap) >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc uidmap) || sudo apt-get install -y -qq podman runc uidmap

# The HTTPS tests make their certificates with openssl and ask with curl; the rotation test brings up
# the loopback of a network namespace with ip (iproute2). Debian packages, installed when missing;
# ip is in /usr/sbin, which an ordinary user's PATH may lack.
tls-tools:
	@PATH="$$PATH:/usr/local/sbin:/usr/sbin:/sbin"; (command -v openssl && command -v curl && command -v ip) >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl curl iproute2) || sudo apt-get install -y -qq openssl curl iproute2

# The metrics test lints /metrics with promtool (`promtool check metrics`), from Debian's prometheus;
# installed when missing.
prometheus-tools:
	@command -v promtool >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus) || sudo apt-get install -y -qq prometheus

# The OCI tests run a real registry (Distribution, Debian's docker-registry) and skopeo as a second client.
registry-tools:
	@(test -x /usr/bin/docker-registry && command -v skopeo) >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry skopeo) || sudo apt-get install -y -qq docker-registry skopeo

# The plan tests run their SQL on PostgreSQL servers of their own (Debian's postgresql); installed when missing.
postgresql-tools:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) || sudo apt-get install -y -qq postgresql

# The type check and the linter run first: a type error or a lint finding fails the build like a failing test.
# Test files run in parallel, one worker process per CPU, the slowest first (test/timings.json, which
# `make test-timings` writes again after test files are added or grow).
test: typecheck lint chromium podman coverage-tools neovim tls-tools registry-tools prometheus-tools postgresql-tools
	$(BUN) test --timeout 30000 --parallel --timings=test/timings.json

test-timings: typecheck chromium podman coverage-tools neovim tls-tools registry-tools prometheus-tools postgresql-tools
	$(BUN) test --timeout 30000 --parallel --timings=test/timings.json --update-timings

# Biome (biome.json): the linter's findings and code that is not formatted fail; `make format` formats.
lint: install
	node_modules/.bin/biome ci --error-on-warnings --max-diagnostics=20 .

format: install
	node_modules/.bin/biome check --write .

typecheck: install
	node_modules/.bin/tsc --noEmit -p .
	node_modules/.bin/tsc --noEmit -p src/explorer
	node_modules/.bin/tsc --noEmit -p src/engine
	node_modules/.bin/tsc --noEmit -p src/compiler
	node_modules/.bin/tsc --noEmit -p editors/vscode

# wrk drives the HTTP benchmark; it is a Debian package, installed when missing.
bench: install chromium
	@command -v wrk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq wrk) || sudo apt-get install -y -qq wrk
	$(BUN) bench/run.ts

# docs/explorer.png, the README's picture of the rules explorer, taken in headless Chromium.
screenshot: install chromium
	$(BUN) docs/screenshot-explorer.ts

# Executables, release archives and SHA256SUMS for every platform, the browser module, the VS Code
# extension and the npm package.
build: install
	$(BUN) build.ts

# The container image as an oci-archive, written without a daemon or network (README, "Container image").
image: install
	$(BUN) build.ts image

# The VS Code extension as dist/rule-server-<version>.vsix, for `code --install-extension`: its client
# bundled by Bun and packed by @vscode/vsce, offline (README, "Editors"). `make build` ships it too;
# this target builds it alone, without the executables.
vsix: install
	$(BUN) editors/vscode/package-vsix.ts

# The npm package alone, dist/npm/rule-server-<version>.tgz (engine and client, README "The npm
# package"), in seconds: `make build` ships it too, beside the executables and in SHA256SUMS.
package: install
	$(BUN) build.ts package

clean:
	rm -rf dist node_modules
