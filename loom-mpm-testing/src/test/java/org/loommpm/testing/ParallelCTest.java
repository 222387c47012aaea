package org.loommpm.testing;

import java.net.URI;
import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/** One of the three classes that {@link Rendezvous} proves run concurrently without colliding. */
@LoomServerTest
class ParallelCTest {
    @LoomServerSetup
    static Handler app() {
        return Rendezvous.answer("C");
    }

    @Test
    void runsBesideTheOthers(URI base, @H2c HttpClient client) throws Exception {
        Rendezvous.meetTheOthers("C", base, client);
    }
}
