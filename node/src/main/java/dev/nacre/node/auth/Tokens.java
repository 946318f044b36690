package dev.nacre.node.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;

/**
 * Access tokens as Nacos' auth plugin issues them: a JWT signed with HMAC-SHA256 under the
 * configured key, naming the user ({@code sub}) and its expiry ({@code exp}). Any member with the
 * same key accepts a token another member issued. Thread-safe.
 */
final class Tokens {
  private final MACSigner signer;
  private final MACVerifier verifier;
  private final Duration ttl;
  private final Clock clock;

  Tokens(byte[] key, Duration ttl, Clock clock) {
    try {
      this.signer = new MACSigner(key);
      this.verifier = new MACVerifier(key);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("the token key cannot sign HMAC-SHA256 tokens: " + e.getMessage(), e);
    }
    this.ttl = ttl;
    this.clock = clock;
  }

  Duration ttl() {
    return ttl;
  }

  String issue(String username) {
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .subject(username)
        .expirationTime(new Date(clock.millis() + ttl.toMillis()))
        .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("could not sign an access token: " + e.getMessage(), e);
    }
    return jwt.serialize();
  }

  /**
   * The user a valid token was issued to.
   *
   * @throws AccessDenied when the token is malformed, not signed with this cluster's key, or expired
   */
  String userOf(String token) {
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) {
      throw new AccessDenied("token invalid: not a JWT; log in again");
    }
    try {
      // Only our algorithm: a token that names another (or "none") is never checked with this key.
      if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm()) || !jwt.verify(verifier)) {
        throw new AccessDenied("token invalid: not issued by this cluster; log in again");
      }
      JWTClaimsSet claims = jwt.getJWTClaimsSet();
      Date expiry = claims.getExpirationTime();
      if (expiry == null || expiry.getTime() <= clock.millis()) {
        throw new AccessDenied("token expired; log in again");
      }
      String user = claims.getSubject();
      if (user == null || user.isEmpty()) {
        throw new AccessDenied("token invalid: it names no user; log in again");
      }
      return user;
    } catch (JOSEException | ParseException e) {
      throw new AccessDenied("token invalid: " + e.getMessage() + "; log in again");
    }
  }
}
