package dev.nacre.config.api;

import java.util.List;

/** One page of a listing, numbered from 1, as Nacos' page answers count. */
public record Page<T>(int totalCount, int pageNumber, int pagesAvailable, List<T> pageItems) {}
