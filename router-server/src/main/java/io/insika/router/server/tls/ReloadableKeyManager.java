package io.insika.router.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The listener's key manager: a handshake asks it for an alias, then for that alias's chain and
 * key, and a reload may land between those calls. So each alias names the generation it came
 * from: a handshake that began before a swap finishes with the pair it chose, one that begins
 * after it chooses the new pair, and no handshake ever pairs a new chain with an old key.
 */
final class ReloadableKeyManager extends X509ExtendedKeyManager {

    /** One generation's pair; the one before it is kept for the handshakes that chose it. */
    private record Generation(int number, X509ExtendedKeyManager keys, Generation previous) {

        String alias(String inner) {
            return inner == null ? null : number + ":" + inner;
        }

        X509ExtendedKeyManager keysOf(String alias) {
            int colon = alias == null ? -1 : alias.indexOf(':');
            if (colon < 0) {
                return null;
            }
            String prefix = alias.substring(0, colon);
            if (prefix.equals(Integer.toString(number))) {
                return keys;
            }
            return previous != null && prefix.equals(Integer.toString(previous.number)) ? previous.keys : null;
        }
    }

    private volatile Generation current;

    ReloadableKeyManager(X509ExtendedKeyManager keys) {
        this.current = new Generation(0, keys, null);
    }

    /** New handshakes use these keys from now on; those under way finish with theirs. */
    synchronized void swap(X509ExtendedKeyManager keys) {
        Generation now = current;
        current = new Generation(now.number() + 1, keys, new Generation(now.number(), now.keys(), null));
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        Generation now = current;
        return now.alias(now.keys().chooseServerAlias(keyType, issuers, socket));
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        Generation now = current;
        return now.alias(now.keys().chooseEngineServerAlias(keyType, issuers, engine));
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        Generation now = current;
        String[] aliases = now.keys().getServerAliases(keyType, issuers);
        if (aliases != null) {
            for (int i = 0; i < aliases.length; i++) {
                aliases[i] = now.alias(aliases[i]);
            }
        }
        return aliases;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        X509ExtendedKeyManager keys = current.keysOf(alias);
        return keys == null ? null : keys.getCertificateChain(inner(alias));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        X509ExtendedKeyManager keys = current.keysOf(alias);
        return keys == null ? null : keys.getPrivateKey(inner(alias));
    }

    // A server presents no client certificate
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    private static String inner(String alias) {
        return alias.substring(alias.indexOf(':') + 1);
    }
}
