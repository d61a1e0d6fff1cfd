# ruff: noqa: E501  (one route per line reads best in this data table)
"""Map and card data of Rails & Sails (world map).

The board is the project's own data drawn on real geography: every city sits at
its real longitude/latitude. The map is cut in the Pacific at longitude
``SEAM_LON`` (-140°): everything west of the seam (Anchorage, Honolulu) is drawn
at the map's east edge next to Asia, so the routes flagged ``wraps`` cross the
left/right edge of the map. Connectivity does not care: a route is an edge.

The long Cape Town–Perth crossing is two 5-space ship routes that meet at the
``indian_ocean`` waypoint (a node that is not a city: no harbor, no ticket).

Route colours: the colours of the 34 double pairs follow the published board
where known (two pairs, Manila–Hong Kong and Jakarta–Bangkok by ship, are the
project's choice to reach 34 pairs); every single route's colour was chosen so
that the total length per colour is balanced within each kind (trains: 23–25
spaces per colour, ships: 41 per colour).

Rough terrain: every space of the five rough routes is rough (``rough == length``;
the rulebook marks all spaces of such a route), and each space takes two train cards
of one colour, any colour and possibly another one per space. The colour of the route
never matters, so rough routes are grey.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class City:
    id: str
    name: str
    lon: float
    lat: float
    harbor: bool


@dataclass(frozen=True)
class Route:
    id: str
    a: str
    b: str
    kind: str  # "train" | "ship"
    length: int
    colour: str  # one of COLOURS or "grey"
    rough: int = 0  # rough spaces: 0, or all of them (== length)
    double: str | None = None
    wraps: bool = False


@dataclass(frozen=True)
class Ticket:
    id: str
    cities: tuple[str, ...]
    points: tuple[int, ...]  # (v,) for two cities; (in_order, any_order, penalty) for route tickets

    @property
    def is_route(self) -> bool:
        return len(self.cities) > 2


COLOURS: tuple[str, ...] = ("purple", "yellow", "green", "red", "black", "white")
SEAM_LON: float = -140.0

#: points for claiming a route of each length
ROUTE_POINTS: dict[int, int] = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}


def _city(cid: str, name: str, lat: float, lon: float, harbor: bool = True) -> tuple[str, City]:
    return cid, City(cid, name, lon, lat, harbor)


CITIES: dict[str, City] = dict(
    [
        # North America and the Pacific
        _city("anchorage", "Anchorage", 61.22, -149.90),
        _city("vancouver", "Vancouver", 49.28, -123.12),
        _city("winnipeg", "Winnipeg", 49.90, -97.14, harbor=False),
        _city("cambridge_bay", "Cambridge Bay", 69.12, -105.06),
        _city("los_angeles", "Los Angeles", 34.05, -118.24),
        _city("new_york", "New York", 40.71, -74.01),
        _city("mexico", "Mexico", 19.43, -99.13, harbor=False),
        _city("miami", "Miami", 25.76, -80.19),
        _city("honolulu", "Honolulu", 21.31, -157.86),
        # South America
        _city("caracas", "Caracas", 10.49, -66.90),
        _city("lima", "Lima", -12.05, -77.04),
        _city("valparaiso", "Valparaiso", -33.05, -71.62),
        _city("buenos_aires", "Buenos Aires", -34.60, -58.38),
        _city("rio_de_janeiro", "Rio de Janeiro", -22.91, -43.17),
        # Europe
        _city("reykjavik", "Reykjavik", 64.15, -21.94),
        _city("edinburgh", "Edinburgh", 55.95, -3.19),
        _city("hamburg", "Hamburg", 53.55, 9.99),
        _city("marseille", "Marseille", 43.30, 5.37),
        _city("moskva", "Moskva", 55.76, 37.62, harbor=False),
        _city("murmansk", "Murmansk", 68.97, 33.08),
        _city("athina", "Athina", 37.98, 23.73),
        # Africa
        _city("casablanca", "Casablanca", 33.57, -7.59),
        _city("lagos", "Lagos", 6.52, 3.38),
        _city("al_qahira", "Al-Qahira", 30.04, 31.24),
        _city("djibouti", "Djibouti", 11.59, 43.15, harbor=False),
        _city("luanda", "Luanda", -8.84, 13.23),
        _city("cape_town", "Cape Town", -33.92, 18.42),
        _city("dar_es_salaam", "Dar Es Salaam", -6.79, 39.21),
        _city("toamasina", "Toamasina", -18.15, 49.40),
        # Asia
        _city("tehran", "Tehran", 35.69, 51.39, harbor=False),
        _city("mumbai", "Mumbai", 19.08, 72.88),
        _city("lahore", "Lahore", 31.55, 74.34, harbor=False),
        _city("novosibirsk", "Novosibirsk", 55.01, 82.93, harbor=False),
        _city("tiksi", "Tiksi", 71.64, 128.87),
        _city("yakutsk", "Yakutsk", 62.03, 129.73, harbor=False),
        _city("petropavlovsk", "Petropavlovsk", 53.02, 158.65),
        _city("beijing", "Beijing", 39.90, 116.41, harbor=False),
        _city("hong_kong", "Hong Kong", 22.32, 114.17),
        _city("bangkok", "Bangkok", 13.76, 100.50),
        _city("tokyo", "Tokyo", 35.68, 139.69),
        _city("manila", "Manila", 14.60, 120.98),
        _city("jakarta", "Jakarta", -6.21, 106.85),
        # Oceania
        _city("darwin", "Darwin", -12.46, 130.84),
        _city("perth", "Perth", -31.95, 115.86),
        _city("sydney", "Sydney", -33.87, 151.21),
        _city("port_moresby", "Port Moresby", -9.44, 147.18),
        _city("christchurch", "Christchurch", -43.53, 172.64),
    ]
)

#: non-city nodes: id -> (lon, lat)
WAYPOINTS: dict[str, tuple[float, float]] = {"indian_ocean": (72.0, -38.0)}

ROUTES: tuple[Route, ...] = (
    Route("vancouver-anchorage-train", "vancouver", "anchorage", "train", 2, "grey", rough=2, wraps=True),
    Route("winnipeg-vancouver-train", "winnipeg", "vancouver", "train", 2, "black"),
    Route("cambridge_bay-winnipeg-train", "cambridge_bay", "winnipeg", "train", 4, "yellow"),
    Route("los_angeles-vancouver-train-1", "los_angeles", "vancouver", "train", 1, "green", double="los_angeles-vancouver-train-2"),
    Route("los_angeles-vancouver-train-2", "los_angeles", "vancouver", "train", 1, "red", double="los_angeles-vancouver-train-1"),
    Route("winnipeg-los_angeles-train", "winnipeg", "los_angeles", "train", 3, "red"),
    Route("new_york-winnipeg-train", "new_york", "winnipeg", "train", 2, "red"),
    Route("new_york-los_angeles-train-1", "new_york", "los_angeles", "train", 4, "purple", double="new_york-los_angeles-train-2"),
    Route("new_york-los_angeles-train-2", "new_york", "los_angeles", "train", 4, "black", double="new_york-los_angeles-train-1"),
    Route("hamburg-marseille-train-1", "hamburg", "marseille", "train", 1, "purple", double="hamburg-marseille-train-2"),
    Route("hamburg-marseille-train-2", "hamburg", "marseille", "train", 1, "red", double="hamburg-marseille-train-1"),
    Route("moskva-hamburg-train-1", "moskva", "hamburg", "train", 2, "white", double="moskva-hamburg-train-2"),
    Route("moskva-hamburg-train-2", "moskva", "hamburg", "train", 2, "black", double="moskva-hamburg-train-1"),
    Route("moskva-murmansk-train", "moskva", "murmansk", "train", 2, "white"),
    Route("novosibirsk-moskva-train-1", "novosibirsk", "moskva", "train", 4, "green", double="novosibirsk-moskva-train-2"),
    Route("novosibirsk-moskva-train-2", "novosibirsk", "moskva", "train", 4, "yellow", double="novosibirsk-moskva-train-1"),
    Route("tiksi-novosibirsk-train", "tiksi", "novosibirsk", "train", 3, "purple"),
    Route("yakutsk-novosibirsk-train", "yakutsk", "novosibirsk", "train", 3, "white"),
    Route("yakutsk-tiksi-train", "yakutsk", "tiksi", "train", 1, "black"),
    Route("petropavlovsk-yakutsk-train", "petropavlovsk", "yakutsk", "train", 3, "black"),
    Route("mexico-los_angeles-train-1", "mexico", "los_angeles", "train", 2, "white", double="mexico-los_angeles-train-2"),
    Route("mexico-los_angeles-train-2", "mexico", "los_angeles", "train", 2, "yellow", double="mexico-los_angeles-train-1"),
    Route("caracas-mexico-train-1", "caracas", "mexico", "train", 3, "purple", double="caracas-mexico-train-2"),
    Route("caracas-mexico-train-2", "caracas", "mexico", "train", 3, "red", double="caracas-mexico-train-1"),
    Route("new_york-miami-train", "new_york", "miami", "train", 2, "purple"),
    Route("lagos-casablanca-train", "lagos", "casablanca", "train", 4, "green"),
    Route("marseille-casablanca-train", "marseille", "casablanca", "train", 1, "grey", rough=1),
    Route("athina-hamburg-train", "athina", "hamburg", "train", 2, "yellow"),
    Route("al_qahira-casablanca-train", "al_qahira", "casablanca", "train", 3, "red"),
    Route("djibouti-al_qahira-train-1", "djibouti", "al_qahira", "train", 2, "red", double="djibouti-al_qahira-train-2"),
    Route("djibouti-al_qahira-train-2", "djibouti", "al_qahira", "train", 2, "white", double="djibouti-al_qahira-train-1"),
    Route("tehran-athina-train", "tehran", "athina", "train", 2, "green"),
    Route("tehran-al_qahira-train-1", "tehran", "al_qahira", "train", 1, "yellow", double="tehran-al_qahira-train-2"),
    Route("tehran-al_qahira-train-2", "tehran", "al_qahira", "train", 1, "black", double="tehran-al_qahira-train-1"),
    Route("tehran-moskva-train", "tehran", "moskva", "train", 3, "purple"),
    Route("mumbai-tehran-train-1", "mumbai", "tehran", "train", 3, "purple", double="mumbai-tehran-train-2"),
    Route("mumbai-tehran-train-2", "mumbai", "tehran", "train", 3, "white", double="mumbai-tehran-train-1"),
    Route("lahore-tehran-train", "lahore", "tehran", "train", 2, "grey", rough=2),
    Route("mumbai-lahore-train-1", "mumbai", "lahore", "train", 1, "green", double="mumbai-lahore-train-2"),
    Route("mumbai-lahore-train-2", "mumbai", "lahore", "train", 1, "black", double="mumbai-lahore-train-1"),
    Route("novosibirsk-lahore-train", "novosibirsk", "lahore", "train", 2, "red"),
    Route("bangkok-mumbai-train-1", "bangkok", "mumbai", "train", 3, "yellow", double="bangkok-mumbai-train-2"),
    Route("bangkok-mumbai-train-2", "bangkok", "mumbai", "train", 3, "red", double="bangkok-mumbai-train-1"),
    Route("beijing-lahore-train", "beijing", "lahore", "train", 3, "grey", rough=3),
    Route("beijing-novosibirsk-train-1", "beijing", "novosibirsk", "train", 3, "red", double="beijing-novosibirsk-train-2"),
    Route("beijing-novosibirsk-train-2", "beijing", "novosibirsk", "train", 3, "black", double="beijing-novosibirsk-train-1"),
    Route("hong_kong-bangkok-train-1", "hong_kong", "bangkok", "train", 1, "purple", double="hong_kong-bangkok-train-2"),
    Route("hong_kong-bangkok-train-2", "hong_kong", "bangkok", "train", 1, "black", double="hong_kong-bangkok-train-1"),
    Route("hong_kong-beijing-train-1", "hong_kong", "beijing", "train", 2, "white", double="hong_kong-beijing-train-2"),
    Route("hong_kong-beijing-train-2", "hong_kong", "beijing", "train", 2, "green", double="hong_kong-beijing-train-1"),
    Route("beijing-yakutsk-train", "beijing", "yakutsk", "train", 3, "green"),
    Route("valparaiso-lima-train-1", "valparaiso", "lima", "train", 2, "grey", double="valparaiso-lima-train-2"),
    Route("valparaiso-lima-train-2", "valparaiso", "lima", "train", 2, "grey", double="valparaiso-lima-train-1"),
    Route("caracas-lima-train-1", "caracas", "lima", "train", 2, "yellow", double="caracas-lima-train-2"),
    Route("caracas-lima-train-2", "caracas", "lima", "train", 2, "white", double="caracas-lima-train-1"),
    Route("rio_de_janeiro-buenos_aires-train-1", "rio_de_janeiro", "buenos_aires", "train", 1, "white", double="rio_de_janeiro-buenos_aires-train-2"),
    Route("rio_de_janeiro-buenos_aires-train-2", "rio_de_janeiro", "buenos_aires", "train", 1, "red", double="rio_de_janeiro-buenos_aires-train-1"),
    Route("rio_de_janeiro-caracas-train-1", "rio_de_janeiro", "caracas", "train", 4, "black", double="rio_de_janeiro-caracas-train-2"),
    Route("rio_de_janeiro-caracas-train-2", "rio_de_janeiro", "caracas", "train", 4, "green", double="rio_de_janeiro-caracas-train-1"),
    Route("luanda-lagos-train-1", "luanda", "lagos", "train", 1, "purple", double="luanda-lagos-train-2"),
    Route("luanda-lagos-train-2", "luanda", "lagos", "train", 1, "yellow", double="luanda-lagos-train-1"),
    Route("cape_town-luanda-train", "cape_town", "luanda", "train", 2, "white"),
    Route("dar_es_salaam-luanda-train", "dar_es_salaam", "luanda", "train", 2, "grey", rough=2),
    Route("dar_es_salaam-cape_town-train-1", "dar_es_salaam", "cape_town", "train", 3, "green", double="dar_es_salaam-cape_town-train-2"),
    Route("dar_es_salaam-cape_town-train-2", "dar_es_salaam", "cape_town", "train", 3, "purple", double="dar_es_salaam-cape_town-train-1"),
    Route("djibouti-dar_es_salaam-train-1", "djibouti", "dar_es_salaam", "train", 1, "black", double="djibouti-dar_es_salaam-train-2"),
    Route("djibouti-dar_es_salaam-train-2", "djibouti", "dar_es_salaam", "train", 1, "red", double="djibouti-dar_es_salaam-train-1"),
    Route("darwin-perth-train", "darwin", "perth", "train", 2, "yellow"),
    Route("sydney-perth-train-1", "sydney", "perth", "train", 2, "white", double="sydney-perth-train-2"),
    Route("sydney-perth-train-2", "sydney", "perth", "train", 2, "yellow", double="sydney-perth-train-1"),
    Route("sydney-darwin-train", "sydney", "darwin", "train", 2, "black"),
    Route("cambridge_bay-anchorage-ship", "cambridge_bay", "anchorage", "ship", 6, "yellow", wraps=True),
    Route("reykjavik-cambridge_bay-ship", "reykjavik", "cambridge_bay", "ship", 6, "yellow"),
    Route("murmansk-reykjavik-ship", "murmansk", "reykjavik", "ship", 4, "white"),
    Route("tiksi-murmansk-ship", "tiksi", "murmansk", "ship", 7, "red"),
    Route("petropavlovsk-tiksi-ship", "petropavlovsk", "tiksi", "ship", 7, "white"),
    Route("anchorage-tiksi-ship", "anchorage", "tiksi", "ship", 8, "yellow"),
    Route("vancouver-tokyo-ship", "vancouver", "tokyo", "ship", 6, "green", wraps=True),
    Route("los_angeles-tokyo-ship-1", "los_angeles", "tokyo", "ship", 7, "black", wraps=True, double="los_angeles-tokyo-ship-2"),
    Route("los_angeles-tokyo-ship-2", "los_angeles", "tokyo", "ship", 7, "green", wraps=True, double="los_angeles-tokyo-ship-1"),
    Route("reykjavik-new_york-ship", "reykjavik", "new_york", "ship", 6, "red"),
    Route("edinburgh-new_york-ship-1", "edinburgh", "new_york", "ship", 7, "red", double="edinburgh-new_york-ship-2"),
    Route("edinburgh-new_york-ship-2", "edinburgh", "new_york", "ship", 7, "purple", double="edinburgh-new_york-ship-1"),
    Route("edinburgh-reykjavik-ship", "edinburgh", "reykjavik", "ship", 2, "yellow"),
    Route("marseille-edinburgh-ship-1", "marseille", "edinburgh", "ship", 1, "white", double="marseille-edinburgh-ship-2"),
    Route("marseille-edinburgh-ship-2", "marseille", "edinburgh", "ship", 1, "green", double="marseille-edinburgh-ship-1"),
    Route("hamburg-edinburgh-ship-1", "hamburg", "edinburgh", "ship", 1, "yellow", double="hamburg-edinburgh-ship-2"),
    Route("hamburg-edinburgh-ship-2", "hamburg", "edinburgh", "ship", 1, "black", double="hamburg-edinburgh-ship-1"),
    Route("petropavlovsk-tokyo-ship", "petropavlovsk", "tokyo", "ship", 2, "green"),
    Route("anchorage-petropavlovsk-ship", "anchorage", "petropavlovsk", "ship", 3, "white"),
    Route("los_angeles-honolulu-ship", "los_angeles", "honolulu", "ship", 3, "purple", wraps=True),
    Route("caracas-miami-ship", "caracas", "miami", "ship", 2, "red"),
    Route("casablanca-miami-ship", "casablanca", "miami", "ship", 7, "green"),
    Route("lagos-caracas-ship", "lagos", "caracas", "ship", 7, "red"),
    Route("athina-marseille-ship", "athina", "marseille", "ship", 2, "black"),
    Route("al_qahira-athina-ship", "al_qahira", "athina", "ship", 1, "yellow"),
    Route("manila-bangkok-ship", "manila", "bangkok", "ship", 2, "yellow"),
    Route("manila-hong_kong-ship-1", "manila", "hong_kong", "ship", 1, "green", double="manila-hong_kong-ship-2"),
    Route("manila-hong_kong-ship-2", "manila", "hong_kong", "ship", 1, "red", double="manila-hong_kong-ship-1"),
    Route("tokyo-manila-ship", "tokyo", "manila", "ship", 2, "green"),
    Route("tokyo-hong_kong-ship", "tokyo", "hong_kong", "ship", 3, "yellow"),
    Route("honolulu-tokyo-ship", "honolulu", "tokyo", "ship", 5, "yellow"),
    Route("honolulu-manila-ship", "honolulu", "manila", "ship", 5, "green"),
    Route("lima-honolulu-ship", "lima", "honolulu", "ship", 6, "black", wraps=True),
    Route("lima-sydney-ship-1", "lima", "sydney", "ship", 8, "purple", wraps=True, double="lima-sydney-ship-2"),
    Route("lima-sydney-ship-2", "lima", "sydney", "ship", 8, "black", wraps=True, double="lima-sydney-ship-1"),
    Route("valparaiso-christchurch-ship", "valparaiso", "christchurch", "ship", 7, "white", wraps=True),
    Route("buenos_aires-lima-ship", "buenos_aires", "lima", "ship", 3, "green"),
    Route("cape_town-buenos_aires-ship-1", "cape_town", "buenos_aires", "ship", 7, "yellow", double="cape_town-buenos_aires-ship-2"),
    Route("cape_town-buenos_aires-ship-2", "cape_town", "buenos_aires", "ship", 7, "purple", double="cape_town-buenos_aires-ship-1"),
    Route("cape_town-rio_de_janeiro-ship-1", "cape_town", "rio_de_janeiro", "ship", 6, "white", double="cape_town-rio_de_janeiro-ship-2"),
    Route("cape_town-rio_de_janeiro-ship-2", "cape_town", "rio_de_janeiro", "ship", 6, "black", double="cape_town-rio_de_janeiro-ship-1"),
    Route("luanda-rio_de_janeiro-ship", "luanda", "rio_de_janeiro", "ship", 6, "white"),
    Route("toamasina-cape_town-ship", "toamasina", "cape_town", "ship", 3, "red"),
    Route("toamasina-dar_es_salaam-ship", "toamasina", "dar_es_salaam", "ship", 1, "black"),
    Route("mumbai-dar_es_salaam-ship", "mumbai", "dar_es_salaam", "ship", 4, "purple"),
    Route("jakarta-dar_es_salaam-ship-1", "jakarta", "dar_es_salaam", "ship", 7, "purple", double="jakarta-dar_es_salaam-ship-2"),
    Route("jakarta-dar_es_salaam-ship-2", "jakarta", "dar_es_salaam", "ship", 7, "green", double="jakarta-dar_es_salaam-ship-1"),
    Route("jakarta-bangkok-ship-1", "jakarta", "bangkok", "ship", 2, "red", double="jakarta-bangkok-ship-2"),
    Route("jakarta-bangkok-ship-2", "jakarta", "bangkok", "ship", 2, "black", double="jakarta-bangkok-ship-1"),
    Route("perth-jakarta-ship", "perth", "jakarta", "ship", 3, "black"),
    Route("manila-jakarta-ship", "manila", "jakarta", "ship", 2, "white"),
    Route("darwin-jakarta-ship", "darwin", "jakarta", "ship", 2, "purple"),
    Route("port_moresby-darwin-ship", "port_moresby", "darwin", "ship", 1, "white"),
    Route("port_moresby-sydney-ship", "port_moresby", "sydney", "ship", 3, "white"),
    Route("christchurch-sydney-ship-1", "christchurch", "sydney", "ship", 1, "white", double="christchurch-sydney-ship-2"),
    Route("christchurch-sydney-ship-2", "christchurch", "sydney", "ship", 1, "red", double="christchurch-sydney-ship-1"),
    Route("honolulu-port_moresby-ship", "honolulu", "port_moresby", "ship", 3, "purple"),
    Route("cape_town-indian_ocean-ship", "cape_town", "indian_ocean", "ship", 5, "red"),
    Route("indian_ocean-perth-ship", "indian_ocean", "perth", "ship", 5, "black"),
)

ROUTES_BY_ID: dict[str, Route] = {r.id: r for r in ROUTES}


def _t(spec: str, *points: int) -> Ticket:
    cities = tuple(spec.split())
    return Ticket("-".join(cities), cities, tuple(points))


TICKETS: tuple[Ticket, ...] = (
    # route tickets: (in order, any order, penalty)
    _t("casablanca al_qahira tehran", 9, 6, 15),
    _t("mexico caracas lima valparaiso", 15, 10, 21),
    _t("lagos luanda dar_es_salaam djibouti", 9, 6, 15),
    _t("murmansk tiksi novosibirsk yakutsk petropavlovsk", 30, 20, 36),
    _t("manila honolulu port_moresby darwin", 13, 9, 19),
    _t("tehran lahore mumbai bangkok", 13, 9, 19),
    _t("anchorage cambridge_bay reykjavik murmansk tiksi", 34, 23, 40),
    _t("anchorage vancouver winnipeg cambridge_bay", 18, 12, 24),
    # two-city tickets
    _t("marseille jakarta", 18),
    _t("lagos tehran", 10),
    _t("jakarta sydney", 7),
    _t("hamburg beijing", 13),
    _t("moskva petropavlovsk", 15),
    _t("los_angeles jakarta", 11),
    _t("casablanca yakutsk", 16),
    _t("miami moskva", 13),
    _t("al_qahira sydney", 19),
    _t("new_york marseille", 10),
    _t("edinburgh tokyo", 22),
    _t("new_york mumbai", 19),
    _t("buenos_aires sydney", 13),
    _t("dar_es_salaam tokyo", 15),
    _t("edinburgh luanda", 10),
    _t("caracas athina", 12),
    _t("reykjavik mumbai", 13),
    _t("lagos hong_kong", 14),
    _t("vancouver miami", 9),
    _t("djibouti lahore", 7),
    _t("new_york tokyo", 15),
    _t("marseille beijing", 14),
    _t("buenos_aires manila", 17),
    _t("buenos_aires marseille", 18),
    _t("marseille al_qahira", 5),
    _t("moskva toamasina", 11),
    _t("mexico beijing", 13),
    _t("hong_kong jakarta", 5),
    _t("new_york cape_town", 19),
    _t("rio_de_janeiro tokyo", 20),
    _t("los_angeles dar_es_salaam", 17),
    _t("rio_de_janeiro hamburg", 18),
    _t("winnipeg perth", 14),
    _t("edinburgh hong_kong", 17),
    _t("los_angeles hamburg", 14),
    _t("mexico mumbai", 15),
    _t("edinburgh sydney", 25),
    _t("athina manila", 14),
    _t("valparaiso rio_de_janeiro", 6),
    _t("new_york sydney", 17),
    _t("tokyo sydney", 11),
    _t("mexico new_york", 11),
    _t("cape_town jakarta", 13),
    _t("caracas al_qahira", 13),
    _t("los_angeles rio_de_janeiro", 15),
    _t("mumbai beijing", 6),
    _t("miami buenos_aires", 9),
    _t("rio_de_janeiro perth", 17),
    _t("casablanca honolulu", 16),
    _t("rio_de_janeiro dar_es_salaam", 11),
    _t("vancouver edinburgh", 13),
    _t("lima jakarta", 14),
    _t("marseille christchurch", 23),
    _t("hamburg dar_es_salaam", 8),
    _t("bangkok tokyo", 6),
    _t("moskva hong_kong", 13),
    _t("novosibirsk darwin", 13),
)

TICKETS_BY_ID: dict[str, Ticket] = {t.id: t for t in TICKETS}


def _cards() -> tuple[tuple[str, ...], tuple[str, ...]]:
    train: list[str] = []
    ship: list[str] = []
    for colour in COLOURS:
        train += [f"t:{colour}"] * 7 + [f"t:{colour}:h"] * 4
        ship += [f"s:{colour}"] * 4 + [f"s:{colour}:2"] * 6
    train += ["t:wild"] * 14
    return tuple(train), tuple(ship)


#: the two decks in a fixed order (shuffled at the start of each game)
TRAIN_CARDS, SHIP_CARDS = _cards()
WILD = "t:wild"
