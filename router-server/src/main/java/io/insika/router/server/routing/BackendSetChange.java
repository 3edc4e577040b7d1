package io.insika.router.server.routing;

import java.util.List;

/**
 * What an update of the backend set changed.
 *
 * @param added   backends now present that were not (a weight change counts as removed and added)
 * @param removed backends no longer present
 * @param current the whole new set, sorted by id
 */
public record BackendSetChange(List<io.insika.router.api.Backend> added, List<io.insika.router.api.Backend> removed,
                               List<io.insika.router.api.Backend> current) {
}
