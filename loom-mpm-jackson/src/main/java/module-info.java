/**
 * JSON for loom-mpm with Jackson: {@link org.loommpm.jackson.JacksonCodec}, the
 * {@link org.loommpm.json.JsonCodec} that {@code Request.json} and {@code Response.json} find by
 * {@link java.util.ServiceLoader} when this module is on the class path or module path.
 *
 * <p>On the module path Jackson reads and writes an application's records and classes by
 * reflection: the application's module opens their packages to {@code com.fasterxml.jackson.databind}
 * (e.g. {@code opens com.example.api to com.fasterxml.jackson.databind;}).
 */
module org.loommpm.jackson {
    requires transitive org.loommpm.core;
    // Transitive: JacksonCodec(ObjectMapper) takes an application's configured mapper.
    requires transitive com.fasterxml.jackson.databind;

    exports org.loommpm.jackson;

    provides org.loommpm.json.JsonCodec with org.loommpm.jackson.JacksonCodec;
}
