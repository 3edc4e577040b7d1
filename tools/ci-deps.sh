# Sourced by .ci/run (as root, on a fresh Debian machine): installs the Debian packages the
# test suite starts itself.
#   dnsmasq: the DNS discovery tests run a real DNS server on a loopback port. dnsmasq-base
#            is the binary alone; the dnsmasq package would also start a system service.
if ! command -v dnsmasq >/dev/null 2>&1 && [ ! -x /usr/sbin/dnsmasq ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dnsmasq-base
fi
