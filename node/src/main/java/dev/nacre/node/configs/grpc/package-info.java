/**
 * The configuration requests of the Nacos 2.x/3.x gRPC client protocol on the client port
 * (P+1000), on the config module's {@code ConfigOperations} and {@code ConfigListeners}.
 *
 * <table>
 *   <caption>Requests answered</caption>
 *   <tr><th>request</th><th>response</th><th>notes</th></tr>
 *   <tr><td>ConfigQueryRequest</td><td>ConfigQueryResponse</td><td>beta content when the
 *     connection's remote address is among the beta addresses, else {@code tag}'s, else formal;
 *     missing: resultCode 500, errorCode 300 (the client's getConfig answers null)</td></tr>
 *   <tr><td>ConfigPublishRequest</td><td>ConfigPublishResponse</td><td>additionMap type, appName,
 *     desc, config_tags, src_user, encryptedDataKey, betaIps, tag; casMd5 (blank: no compare);
 *     a compare that fails: errorCode 400 (the client answers false)</td></tr>
 *   <tr><td>ConfigRemoveRequest</td><td>ConfigRemoveResponse</td><td>formal content with its beta
 *     and tags, or one tag's; removing nothing succeeds</td></tr>
 *   <tr><td>ConfigBatchListenRequest</td><td>ConfigChangeBatchListenResponse</td><td>listen
 *     true: listens and lists the keys whose md5 differs; false: cancels</td></tr>
 *   <tr><td>ClientConfigMetricRequest</td><td>ClientConfigMetricResponse</td><td>an empty
 *     metrics map (Nacos sends this request the other way, to clients)</td></tr>
 * </table>
 *
 * <p>Ignored: the {@code notify} header of queries; additionMap's {@code schema}, {@code use},
 * {@code effect} and anything else not listed; the user of a remove (recorded as ""); the
 * {@code metricsKeys} of a metric request. Listening reads the tag from the {@code Vipserver-Tag}
 * header. Errors: INVALID 400 ({@code Param check invalid:...}; an ErrorResponse for queries),
 * NOT_FOUND 300, CONFLICT 400, LIMITED and UNAVAILABLE 503, all with resultCode 500.
 */
package dev.nacre.node.configs.grpc;
