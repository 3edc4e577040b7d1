# Sourced by .ci/run: installs the Debian packages the test suite starts (none are needed
# yet beyond the JDK and Maven the machine brings).
true
