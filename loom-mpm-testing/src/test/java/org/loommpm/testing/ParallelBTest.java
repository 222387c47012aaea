package org.loommpm.testing;

import java.net.URI;
import java.net.http.HttpClient;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/** One of the three classes that {@link Rendezvous} proves run concurrently without colliding. */
@LoomServerTest
class ParallelBTest {
    @LoomServerSetup
    static Handler app() {
        return Rendezvous.answer("B");
    }

    @Test
    void runsBesideTheOthers(URI base, HttpClient client) throws Exception {
        Rendezvous.meetTheOthers("B", base, client);
    }
}
